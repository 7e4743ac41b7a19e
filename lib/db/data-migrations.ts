import "server-only";
import type pg from "pg";
import { processSlot } from "@/lib/process-slots";

/**
 * Data migrations: steps the migration runner (./migrate.ts) runs after the
 * schema migrations, under the same advisory lock, on every start (each one
 * finds its work done after the first and costs a read). They move or seal
 * data a schema migration set aside (gallery templates, location fixes
 * stored in clear before they were sealed), so they need the domains that
 * own that data; the database layer imports no domain
 * (docs/architecture.md "Layers inside lib/"), so each process that can open
 * the database registers them first: the server at start-up, the CLI, the
 * worker and `npm run db:migrate` (lib/operations/data-migrations.ts).
 */
export type DataMigration = {
  name: string;
  run(client: pg.Client, log: (line: string) => void): Promise<unknown>;
};

const dataMigrationsSlot = processSlot<readonly DataMigration[]>("dataMigrations");

export function registerDataMigrations(steps: readonly DataMigration[]): void {
  dataMigrationsSlot.value = steps;
}

/** The registered steps; none in a process that registered none (a fresh test database has nothing to move). */
export function registeredDataMigrations(): readonly DataMigration[] {
  return dataMigrationsSlot.value ?? [];
}
