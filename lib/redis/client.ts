import { Redis } from "ioredis";
import { env } from "@/lib/config/env";
import { logger } from "@/lib/log/logger";

const globalForRedis = globalThis as unknown as { __svcRedis?: Redis | null };

/** The shared Redis connection, or null when REDIS_URL is not configured. */
export function redis(): Redis | null {
  if (globalForRedis.__svcRedis !== undefined) return globalForRedis.__svcRedis;
  const url = env().REDIS_URL;
  if (!url) {
    globalForRedis.__svcRedis = null;
    return null;
  }
  const client = new Redis(url, { maxRetriesPerRequest: 1 });
  let lastLogged = 0;
  client.on("error", (err) => {
    if (Date.now() - lastLogged > 30_000) {
      lastLogged = Date.now();
      logger.warn("redis error", { error: err.message });
    }
  });
  globalForRedis.__svcRedis = client;
  return client;
}
