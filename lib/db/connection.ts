import "server-only";
import { env } from "@/lib/config/env";
import { connectEmbedded, type EmbeddedConnection, type EmbeddedRole } from "./embedded-host";
import { migrateDatabase } from "./migrate";
import { analyzeDatabase } from "./planner-statistics";
import { processSlot } from "@/lib/process-slots";

/**
 * Resolves the database every process of this install talks to, and makes
 * sure its schema is current. DATABASE_URL set: that PostgreSQL, migrated
 * under an advisory lock. Unset: the embedded PGlite under DATA_DIR (see
 * embedded-host.ts), migrated by whichever process hosts it.
 */
export type DatabaseHandle = { url: string; embedded: boolean; close(): Promise<void> };

const databaseSlot = processSlot<Promise<DatabaseHandle>>("database");
const databaseRoleSlot = processSlot<EmbeddedRole>("databaseRole");

/** The CLI declares itself so it never holds the embedded database long. */
export function setDatabaseRole(role: EmbeddedRole) {
  databaseRoleSlot.value = role;
}

export function ensureDatabase(log: (line: string) => void = (l) => process.stderr.write(`[db] ${l}\n`)) {
  databaseSlot.value ??= openDatabase(log).catch((err) => {
    databaseSlot.value = undefined;
    throw err;
  });
  return databaseSlot.value;
}

async function openDatabase(log: (line: string) => void): Promise<DatabaseHandle> {
  const config = env();
  if (config.DATABASE_URL) {
    await migrateDatabase(config.DATABASE_URL, undefined, log);
    return { url: config.DATABASE_URL, embedded: false, async close() {} };
  }
  const role = databaseRoleSlot.value ?? "server";
  const embedded: EmbeddedConnection = await connectEmbedded(config.DATA_DIR, role);
  if (embedded.owner) {
    try {
      await migrateDatabase(embedded.url, undefined, log);
      // PGlite has no autovacuum and forgets its activity counters on close (planner-statistics.ts).
      if (role === "server") await analyzeDatabase(embedded.url);
    } catch (err) {
      await embedded.close();
      throw err;
    }
    embedded.publish();
  }
  return { url: embedded.url, embedded: true, close: () => embedded.close() };
}

/** Closes the handle when one is open (an embedded host stops hosting) and forgets it: the next use opens it again, as the environment then says. */
export async function closeDatabaseHandle() {
  const open = databaseSlot.value;
  databaseSlot.value = undefined;
  const handle = await open?.catch(() => undefined);
  await handle?.close().catch(() => {});
}
