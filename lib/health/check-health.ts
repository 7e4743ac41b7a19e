import { db } from "@/lib/db/client";
import { redis } from "@/lib/redis/client";
import { ApiError } from "@/lib/http/api-error";
import { rateLimiterHealth } from "@/lib/http/rate-limit";
import { logger } from "@/lib/log/logger";

async function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * One dependency's state. Anyone may call /api/health, so a failure says
 * only "unavailable"; the driver's own message (hosts, ports, users) goes to
 * the server log with the request id.
 */
async function probe(name: string, requestId: string, fn: () => Promise<unknown>): Promise<{ status: "ok" | "unavailable" }> {
  try {
    await withTimeout(fn(), 3000);
    return { status: "ok" };
  } catch (err) {
    logger.warn("health probe failed", { requestId, dependency: name, error: (err as Error).message });
    return { status: "unavailable" };
  }
}

/**
 * GET /api/health: the database, Redis (when configured) and the rate
 * limiter. 503 `service_unavailable` when one is not as it should be (the
 * limiter failing open, or falling back to per-instance budgets, counts).
 */
export async function checkHealth(requestId: string) {
  const database = await probe("database", requestId, async () => (await db()).$queryRaw`SELECT 1`);
  const client = redis();
  const redisStatus = client ? await probe("redis", requestId, () => client.ping()) : { status: "not_configured" as const };
  const rateLimit = rateLimiterHealth(client ? redisStatus.status === "ok" : null);
  const healthy = database.status === "ok" && redisStatus.status !== "unavailable" && rateLimit.status === "ok";
  const data = { status: healthy ? "ok" : "degraded", database, redis: redisStatus, rate_limit: rateLimit };
  if (!healthy) throw new ApiError("service_unavailable", { data });
  return data;
}
