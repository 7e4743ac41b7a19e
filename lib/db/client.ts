import pg from "pg";
import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaClient } from "@/generated/prisma/client";
import { env } from "@/lib/config/env";
import { ensureDatabase } from "./connection";

export type Db = PrismaClient;
/** A transaction handle: what domain functions take when they must share one. */
export type Tx = Parameters<Parameters<PrismaClient["$transaction"]>[0]>[0];

type Handles = { prisma: PrismaClient; pool: pg.Pool };
const globalForDb = globalThis as unknown as { __svcDbHandles?: Promise<Handles> };

const TIMESTAMP_OID = 1114;

/**
 * Columns are `timestamp` (without zone) holding UTC, as Prisma writes them;
 * node-postgres would read them as local time.
 */
const utcTypes = {
  getTypeParser(oid: number, format?: "text" | "binary") {
    if (oid === TIMESTAMP_OID && format !== "binary") return (value: string) => new Date(`${value.replace(" ", "T")}Z`);
    return pg.types.getTypeParser(oid, format);
  },
} as pg.CustomTypesConfig;

function handles(): Promise<Handles> {
  globalForDb.__svcDbHandles ??= (async () => {
    const handle = await ensureDatabase();
    const pool = new pg.Pool({
      connectionString: handle.url,
      max: handle.embedded ? 4 : env().DATABASE_POOL_SIZE,
      types: utcTypes,
    });
    // An idle connection that breaks is dropped by the pool; never crash on it.
    pool.on("error", () => {});
    return { prisma: new PrismaClient({ adapter: new PrismaPg(pool) }), pool };
  })().catch((err) => {
    globalForDb.__svcDbHandles = undefined;
    throw err;
  });
  return globalForDb.__svcDbHandles;
}

/** The Prisma client for this process (schema migrated before first use). */
export async function db(): Promise<PrismaClient> {
  return (await handles()).prisma;
}

/**
 * The same connection pool for plain SQL on the API's hot paths, where the
 * ORM's per-query cost (about 1 ms of CPU) matters. Pass dates as ISO strings
 * and cast them (`$1::timestamptz AT TIME ZONE 'UTC'`).
 */
export async function sqlPool(): Promise<pg.Pool> {
  return (await handles()).pool;
}

export async function disconnectDb() {
  const current = globalForDb.__svcDbHandles;
  globalForDb.__svcDbHandles = undefined;
  if (!current) return;
  const { prisma, pool } = await current;
  await prisma.$disconnect();
  await pool.end().catch(() => {});
}
