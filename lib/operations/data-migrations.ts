import { sealStoredLocationFixes } from "@/lib/sessions/location-fix";
import { registerDataMigrations, type DataMigration } from "@/lib/db/data-migrations";
import { sealStoredFaceTemplates } from "@/lib/faces/sealed-faces";

/** The data migrations of this version, in order (lib/db/data-migrations.ts). */
export const DATA_MIGRATIONS: readonly DataMigration[] = [
  { name: "seal stored face templates", run: sealStoredFaceTemplates },
  { name: "seal stored location fixes", run: sealStoredLocationFixes },
];

/** Called first by every process that can open the database: the server, the CLI, the worker, db:migrate. */
export function registerAppDataMigrations(): void {
  registerDataMigrations(DATA_MIGRATIONS);
}
