import "server-only";
import { createHash, randomUUID } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import pg from "pg";
import { registeredDataMigrations } from "./data-migrations";

/**
 * The migration runner. Prisma's own `migrate deploy` cannot run offline, so
 * the SQL files that `prisma migrate diff` wrote to
 * prisma/migrations/<timestamp>_<name>/migration.sql are applied here: in
 * name order, each in its own transaction, recorded in a table compatible
 * with Prisma's `_prisma_migrations`, under an advisory lock so instances
 * starting together never race; then the data migrations the process
 * registered (./data-migrations.ts), under the same lock.
 */

export type MigrationFile = { name: string; sql: string; checksum: string };
export type MigrationReport = { applied: string[]; alreadyApplied: string[] };

const ADVISORY_LOCK_ID = 72_707_369; // stable, arbitrary: "svc migrations"

export function migrationsDir(): string {
  return path.join(/* turbopackIgnore: true */ process.cwd(), "prisma", "migrations");
}

export function readMigrations(dir: string = migrationsDir()): MigrationFile[] {
  if (!fs.existsSync(/* turbopackIgnore: true */ dir)) return [];
  return fs
    .readdirSync(/* turbopackIgnore: true */ dir, { withFileTypes: true })
    .filter((d) => d.isDirectory() && fs.existsSync(/* turbopackIgnore: true */ path.join(dir, d.name, "migration.sql")))
    .map((d) => d.name)
    .sort()
    .map((name) => {
      const sql = fs.readFileSync(/* turbopackIgnore: true */ path.join(dir, name, "migration.sql"), "utf8");
      return { name, sql, checksum: createHash("sha256").update(sql).digest("hex") };
    });
}

const CREATE_TABLE = `
CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
  "id" VARCHAR(36) PRIMARY KEY NOT NULL,
  "checksum" VARCHAR(64) NOT NULL,
  "finished_at" TIMESTAMPTZ,
  "migration_name" VARCHAR(255) NOT NULL,
  "logs" TEXT,
  "rolled_back_at" TIMESTAMPTZ,
  "started_at" TIMESTAMPTZ NOT NULL DEFAULT now(),
  "applied_steps_count" INTEGER NOT NULL DEFAULT 0
)`;

export class MigrationError extends Error {}

export async function migrateDatabase(
  connectionString: string,
  migrations: MigrationFile[] = readMigrations(),
  log: (line: string) => void = () => {},
): Promise<MigrationReport> {
  const client = new pg.Client({ connectionString });
  await client.connect();
  try {
    await client.query("SELECT pg_advisory_lock($1)", [ADVISORY_LOCK_ID]);
    try {
      await client.query(CREATE_TABLE);
      const { rows } = await client.query<{ migration_name: string; checksum: string }>(
        `SELECT migration_name, checksum FROM "_prisma_migrations"
          WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL`,
      );
      const done = new Map(rows.map((r) => [r.migration_name, r.checksum]));
      const report: MigrationReport = { applied: [], alreadyApplied: [] };
      for (const migration of migrations) {
        const checksum = done.get(migration.name);
        if (checksum !== undefined) {
          if (checksum !== migration.checksum) {
            log(`warning: migration ${migration.name} was modified after it was applied`);
          }
          report.alreadyApplied.push(migration.name);
          continue;
        }
        await client.query("BEGIN");
        try {
          await client.query(migration.sql);
          await client.query(
            `INSERT INTO "_prisma_migrations"
               (id, checksum, finished_at, migration_name, applied_steps_count)
             VALUES ($1, $2, now(), $3, 1)`,
            [randomUUID(), migration.checksum, migration.name],
          );
          await client.query("COMMIT");
        } catch (err) {
          await client.query("ROLLBACK").catch(() => {});
          throw new MigrationError(`Migration ${migration.name} failed: ${(err as Error).message}`);
        }
        log(`applied migration ${migration.name}`);
        report.applied.push(migration.name);
      }
      for (const step of registeredDataMigrations()) await step.run(client, log);
      return report;
    } finally {
      await client.query("SELECT pg_advisory_unlock($1)", [ADVISORY_LOCK_ID]).catch(() => {});
    }
  } finally {
    await client.end().catch(() => {});
  }
}
