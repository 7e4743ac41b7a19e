import "server-only";
import pg from "pg";
import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaClient } from "@/generated/prisma/client";
import { env } from "@/lib/config/env";
import { closeDatabaseHandle, ensureDatabase } from "./connection";
import { processSlot } from "@/lib/process-slots";

export type Db = PrismaClient;
/** A transaction handle: what domain functions take when they must share one. */
export type Tx = Parameters<Parameters<PrismaClient["$transaction"]>[0]>[0];

type Handles = { prisma: PrismaClient; pool: pg.Pool };
const dbHandlesSlot = processSlot<Promise<Handles>>("dbHandles");

/**
 * Every connection of ours runs in UTC, whatever the server's or database's
 * TimeZone. Columns are `timestamptz`, so stored instants never depend on
 * it; but @prisma/adapter-pg 6.19 sends DateTime parameters as UTC wall-clock
 * times without an offset and reads `timestamptz` values as if their offset
 * were +00, so Prisma is right only in a UTC session. (The embedded PGlite
 * has one session, in UTC, and ignores this startup option.)
 */
const UTC_SESSION = "-c TimeZone=UTC";

function handles(): Promise<Handles> {
  dbHandlesSlot.value ??= (async () => {
    const handle = await ensureDatabase();
    const pool = new pg.Pool({
      connectionString: handle.url,
      max: handle.embedded ? 4 : env().DATABASE_POOL_SIZE,
      options: UTC_SESSION,
    });
    // An idle connection that breaks is dropped by the pool; never crash on it.
    pool.on("error", () => {});
    // Interactive transactions (sign-up, ledger entries) wait for a connection
    // and run for longer than Prisma's defaults (2 s, 5 s) before giving up: a
    // database busy with a bulk write (10,000 faces enrolled) must slow a
    // request down, not answer it 500.
    const transactionOptions = { maxWait: 15_000, timeout: 30_000 };
    return { prisma: new PrismaClient({ adapter: new PrismaPg(pool), transactionOptions }), pool };
  })().catch((err) => {
    dbHandlesSlot.value = undefined;
    throw err;
  });
  return dbHandlesSlot.value;
}

/** The Prisma client for this process (schema migrated before first use). */
export async function db(): Promise<PrismaClient> {
  return (await handles()).prisma;
}

/**
 * The same connection pool for plain SQL on the API's hot paths, where the
 * ORM's per-query cost (about 1 ms of CPU) matters. Every timestamp column
 * is `timestamptz`: pass instants as ISO strings cast with `$1::timestamptz`.
 */
export async function sqlPool(): Promise<pg.Pool> {
  return (await handles()).pool;
}

/**
 * Ends this process's use of the database: its clients, then its handle (an
 * embedded host stops hosting). The next use opens them again, for the
 * install the environment then names (the CLI at exit; tests and benchmarks
 * that move from one install to another).
 */
export async function closeDatabase() {
  await disconnectDb().catch(() => {});
  await closeDatabaseHandle();
}

export async function disconnectDb() {
  const current = dbHandlesSlot.value;
  dbHandlesSlot.value = undefined;
  if (!current) return;
  const { prisma, pool } = await current;
  await prisma.$disconnect();
  await pool.end().catch(() => {});
}
