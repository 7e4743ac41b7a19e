import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaClient } from "@/generated/prisma/client";
import { env } from "@/lib/config/env";
import { ensureDatabase } from "./connection";

export type Db = PrismaClient;
/** A transaction handle: what domain functions take when they must share one. */
export type Tx = Parameters<Parameters<PrismaClient["$transaction"]>[0]>[0];

const globalForPrisma = globalThis as unknown as { __svcPrisma?: Promise<PrismaClient> };

/** The Prisma client for this process (schema migrated before first use). */
export function db(): Promise<PrismaClient> {
  globalForPrisma.__svcPrisma ??= (async () => {
    const handle = await ensureDatabase();
    const adapter = new PrismaPg({
      connectionString: handle.url,
      max: handle.embedded ? 4 : env().DATABASE_POOL_SIZE,
    });
    return new PrismaClient({ adapter });
  })().catch((err) => {
    globalForPrisma.__svcPrisma = undefined;
    throw err;
  });
  return globalForPrisma.__svcPrisma;
}

export async function disconnectDb() {
  const client = globalForPrisma.__svcPrisma;
  globalForPrisma.__svcPrisma = undefined;
  if (client) await (await client).$disconnect();
}
