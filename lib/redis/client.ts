import "server-only";
import { Redis } from "ioredis";
import { env } from "@/lib/config/env";
import { logger } from "@/lib/log/logger";
import { processSlot } from "@/lib/process-slots";

const redisSlot = processSlot<Redis | null>("redis");

/** The shared Redis connection, or null when REDIS_URL is not configured. */
export function redis(): Redis | null {
  if (redisSlot.value !== undefined) return redisSlot.value;
  const url = env().REDIS_URL;
  if (!url) {
    redisSlot.value = null;
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
  redisSlot.value = client;
  return client;
}
