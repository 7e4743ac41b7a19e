// `npm run db:migrate`: applies pending migrations to DATABASE_URL (or the
// embedded database) and prints what it did as JSON.
try {
  process.loadEnvFile(".env");
} catch {
  // no .env file
}
import { env } from "@/lib/config/env";
import { connectEmbedded } from "@/lib/db/embedded-host";
import { migrateDatabase } from "@/lib/db/migrate";
import { registerAppDataMigrations } from "@/lib/operations/data-migrations";

registerAppDataMigrations();

const log = (line: string) => process.stderr.write(`[db] ${line}\n`);
const config = env();
try {
  if (config.DATABASE_URL) {
    process.stdout.write(`${JSON.stringify(await migrateDatabase(config.DATABASE_URL, undefined, log))}\n`);
  } else {
    const embedded = await connectEmbedded(config.DATA_DIR, "cli");
    try {
      process.stdout.write(`${JSON.stringify(await migrateDatabase(embedded.url, undefined, log))}\n`);
    } finally {
      await embedded.close();
    }
  }
  process.exit(0);
} catch (err) {
  process.stderr.write(`${JSON.stringify({ error: { code: "migration_failed", message: (err as Error).message } })}\n`);
  process.exit(1);
}
