import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from "rate-limiter-flexible";
import { env } from "@/lib/config/env";
import { redis } from "@/lib/redis/client";
import { logger } from "@/lib/log/logger";
import { ApiError } from "./api-error";

/**
 * Spec 8: about 150 requests per minute per client IP. Budgets are per
 * surface ("v2" for /api/v2, "sdk" for /api/sdk). With REDIS_URL every
 * instance draws on one shared budget; if Redis stops answering, each
 * instance falls back to its own in-memory budget instead of failing.
 */
export type RateLimitBucket = "v2" | "sdk" | "session-uploads";

const globalForLimiters = globalThis as unknown as { __svcLimiters?: Map<string, RateLimiterAbstract> };

function limiterFor(bucket: RateLimitBucket, points: number, durationSeconds: number): RateLimiterAbstract {
  const limiters = (globalForLimiters.__svcLimiters ??= new Map());
  const name = `${bucket}:${points}:${durationSeconds}`;
  let limiter = limiters.get(name);
  if (!limiter) {
    const keyPrefix = `${env().REDIS_KEY_PREFIX}rl:${bucket}`;
    const memory = new RateLimiterMemory({ keyPrefix, points, duration: durationSeconds });
    const client = redis();
    limiter = client
      ? new RateLimiterRedis({
          storeClient: client,
          keyPrefix,
          points,
          duration: durationSeconds,
          insuranceLimiter: memory,
        })
      : memory;
    limiters.set(name, limiter);
  }
  return limiter;
}

export type RateLimitHeaders = Record<string, string>;

/** Consumes one request; throws 429 `rate_limited` (no Retry-After) when over. */
export async function consumeRateLimit(
  bucket: RateLimitBucket,
  key: string,
  points = env().RATE_LIMIT_PER_MINUTE,
  durationSeconds = 60,
): Promise<RateLimitHeaders> {
  try {
    const res = await limiterFor(bucket, points, durationSeconds).consume(key);
    return {
      "X-RateLimit-Limit": String(points),
      "X-RateLimit-Remaining": String(Math.max(0, res.remainingPoints)),
    };
  } catch (err) {
    if (err instanceof RateLimiterRes) {
      throw new ApiError("rate_limited", { message: "Too many requests; slow down and retry later" });
    }
    logger.error("rate limiter unavailable", { error: (err as Error).message });
    return {};
  }
}
