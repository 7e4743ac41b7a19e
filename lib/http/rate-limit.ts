import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from "rate-limiter-flexible";
import { env } from "@/lib/config/env";
import { now } from "@/lib/clock";
import { redis } from "@/lib/redis/client";
import { describeError, logger } from "@/lib/log/logger";
import { ApiError } from "./api-error";
import { abuseKeyOfIp } from "./client-ip";
import { processSlot } from "@/lib/process-slots";

/**
 * Spec 8: about 150 requests per minute per client IP. Budgets are per
 * surface (rateLimitBucketFor). With REDIS_URL every instance draws on one
 * shared budget. Failure modes, chosen for availability and reported by
 * /api/health (rateLimiterHealth) and the logs:
 * - Redis stops answering: each instance falls back to its own in-memory
 *   budget (rate-limiter-flexible's insurance limiter), so a client gets up
 *   to the budget per instance;
 * - the limiter itself fails: the request is let through (fail open) rather
 *   than refusing every caller.
 */
export type RateLimitBucket =
  | "v2"
  | "sdk"
  | "sdk-invite"
  | "sdk-recovery"
  | "sdk-recovery-person"
  | "auth"
  | "portal"
  | "session-uploads"
  | "portal-sign-in-ip"
  | "portal-sign-in-account"
  | "portal-password-reset"
  | "portal-sign-up"
  | "portal-email-verification"
  | "oidc-client-auth-ip"
  | "oidc-client-auth-client";

/**
 * Which budget a path draws on: the verification API, the organization API,
 * and the anonymous browser endpoints of the OpenID Connect provider (the
 * authorization request, the sign-in pages and forms).
 * The developer portal's own JSON routes and next-auth's endpoints
 * (/api/portal) have a budget of their own; sign-in attempts and password
 * reset mails have stricter per-account budgets on top (lib/portal/).
 * Token, userinfo, JWKS and discovery are not limited per IP: they are
 * called server to server, authenticated by client secret or token; the
 * token endpoint limits failed client authentications instead
 * (lib/oidc/client-auth.ts). Every limit's numbers: ./abuse-limits.ts.
 */
export function rateLimitBucketFor(pathname: string): RateLimitBucket | null {
  if (pathname === "/api/v2" || pathname.startsWith("/api/v2/")) return "v2";
  if (pathname === "/api/sdk" || pathname.startsWith("/api/sdk/")) return "sdk";
  if (pathname.startsWith("/api/portal/")) return "portal";
  if (pathname === "/api/auth/oidc/authorize" || pathname === "/api/auth/oidc/logout" || pathname.startsWith("/oidc/interaction/") || pathname.startsWith("/account/") || pathname.startsWith("/activate/")) {
    return "auth";
  }
  return null;
}

const limitersSlot = processSlot<Map<string, RateLimiterAbstract>>("limiters");
const limiterFailingSlot = processSlot<{ since: Date; error: string } | null>("limiterFailing");

function limiterFor(bucket: RateLimitBucket, points: number, durationSeconds: number): RateLimiterAbstract {
  const limiters = (limitersSlot.value ??= new Map());
  const name = `${bucket}:${points}:${durationSeconds}`;
  let limiter = limiters.get(name);
  if (!limiter) {
    const keyPrefix = `${env().REDIS_KEY_PREFIX}rl:${bucket}`;
    const memory = new RateLimiterMemory({ keyPrefix, points, duration: durationSeconds });
    const client = redis();
    limiter = client
      ? new RateLimiterRedis({ storeClient: client, keyPrefix, points, duration: durationSeconds, insuranceLimiter: memory })
      : memory;
    limiters.set(name, limiter);
  }
  return limiter;
}

export type RateLimitHeaders = Record<string, string>;

function noteFailure(err: unknown) {
  if (!limiterFailingSlot.value) {
    limiterFailingSlot.value = { since: now(), error: (err as Error).message };
    logger.error("rate limiter failing: requests are let through until it recovers", describeError(err));
  }
}

function noteSuccess() {
  if (limiterFailingSlot.value) {
    logger.info("rate limiter recovered", { failing_since: limiterFailingSlot.value.since.toISOString() });
    limiterFailingSlot.value = null;
  }
}

/**
 * Whom a budget counts: a key of the caller's (an app, a developer, an
 * email) or `{ ip }`, a client IP, counted under abuseKeyOfIp (an IPv6
 * client by its /64 network). Every per-IP budget passes `{ ip }`.
 */
export type RateLimitKey = string | { ip: string };

function limiterKey(key: RateLimitKey): string {
  return typeof key === "string" ? key : `ip:${abuseKeyOfIp(key.ip)}`;
}

/** Consumes one request; throws 429 `rate_limited` (no Retry-After) when over. */
export async function consumeRateLimit(
  bucket: RateLimitBucket,
  key: RateLimitKey,
  points = env().RATE_LIMIT_PER_MINUTE,
  durationSeconds = 60,
): Promise<RateLimitHeaders> {
  try {
    const res = await limiterFor(bucket, points, durationSeconds).consume(limiterKey(key));
    noteSuccess();
    return {
      "X-RateLimit-Limit": String(points),
      "X-RateLimit-Remaining": String(Math.max(0, res.remainingPoints)),
    };
  } catch (err) {
    if (err instanceof RateLimiterRes) {
      noteSuccess();
      throw new ApiError("rate_limited", { message: "Too many requests; slow down and retry later" });
    }
    noteFailure(err);
    return {};
  }
}

/** Forgets a key's counted failures (after a success); fails open. */
export async function clearFailures(bucket: RateLimitBucket, key: string, points: number, durationSeconds: number): Promise<void> {
  try {
    await limiterFor(bucket, points, durationSeconds).delete(key);
    noteSuccess();
  } catch (err) {
    noteFailure(err);
  }
}

/**
 * A failed-attempt budget keyed so that nobody can lock an account out from
 * elsewhere: failures are counted per (account, client IP) and per client IP
 * alone; over either, that IP's attempts (for that account, or at all) are
 * refused, the right secret included, until the window ends. Other IPs are
 * unaffected. Successes never count, and one clears its (account, IP) count.
 * Used by the token endpoint's client authentication and the portal sign-in.
 */
export type FailureBudget = {
  ipBucket: RateLimitBucket;
  accountBucket: RateLimitBucket;
  failuresPerAccountPerIp: number;
  failuresPerIp: number;
  windowSeconds: number;
  /**
   * Whether an attempt counts as a failure from its start until it reports
   * success, so that a burst of concurrent attempts cannot all pass a check
   * made before any of them failed: for human passwords (the portal
   * sign-in), which nobody sends concurrently and a burst could guess. Off
   * for machine clients (the token endpoint), whose backends legitimately
   * send many concurrent requests and whose secrets are too long to guess.
   */
  reserveBeforeCheck: boolean;
};

/** The outcome of an attempt started by startBudgetedAttempt: report exactly one. */
export type BudgetedAttempt = { failed(): Promise<void>; succeeded(): Promise<void> };

/** How many failures `key` has counted; 429 `rate_limited` when the budget is spent (fails open like consumeRateLimit). */
async function assertUnderFailureLimit(bucket: RateLimitBucket, key: string, points: number, durationSeconds: number): Promise<number> {
  let counted: RateLimiterRes | null;
  try {
    counted = await limiterFor(bucket, points, durationSeconds).get(key);
    noteSuccess();
  } catch (err) {
    noteFailure(err);
    return 0;
  }
  if (counted && counted.consumedPoints >= points) throw new ApiError("rate_limited", { message: "Too many failed attempts; retry later" });
  return counted?.consumedPoints ?? 0;
}

/** Counts one failure for `key`; with `refuseOver`, 429 `rate_limited` when that spends more than the budget. Fails open. */
async function countFailure(bucket: RateLimitBucket, key: string, points: number, durationSeconds: number, refuseOver = false): Promise<void> {
  try {
    await limiterFor(bucket, points, durationSeconds).consume(key);
    noteSuccess();
  } catch (err) {
    if (!(err instanceof RateLimiterRes)) return noteFailure(err);
    noteSuccess();
    if (refuseOver) throw new ApiError("rate_limited", { message: "Too many failed attempts; retry later" });
  }
}

async function returnFailure(bucket: RateLimitBucket, key: string, points: number, durationSeconds: number): Promise<void> {
  try {
    await limiterFor(bucket, points, durationSeconds).reward(key, 1);
    noteSuccess();
  } catch (err) {
    noteFailure(err);
  }
}

/**
 * Throws 429 `rate_limited` when `ip` is over either budget (checked before
 * the secret, so a refused attempt costs no hashing); otherwise the attempt
 * whose outcome the caller reports: a failure is counted on both budgets, a
 * success clears the (account, IP) count. With `reserveBeforeCheck` the
 * failure is counted when the attempt starts and a success gives the IP's
 * back. Without an `account` (missing or empty) only the IP budget applies.
 * The IP is counted under abuseKeyOfIp (an IPv6 client by its /64
 * network), in both budgets.
 */
export async function startBudgetedAttempt(budget: FailureBudget, clientIp: string, account: string | undefined): Promise<BudgetedAttempt> {
  const { ipBucket, accountBucket, failuresPerAccountPerIp, failuresPerIp, windowSeconds } = budget;
  const ip = limiterKey({ ip: clientIp });
  const accountKey = account ? `${account}|${ip}` : undefined;
  const clearAccount = () => (accountKey === undefined ? Promise.resolve() : clearFailures(accountBucket, accountKey, failuresPerAccountPerIp, windowSeconds));
  if (budget.reserveBeforeCheck) {
    await countFailure(ipBucket, ip, failuresPerIp, windowSeconds, true);
    if (accountKey !== undefined) {
      try {
        await countFailure(accountBucket, accountKey, failuresPerAccountPerIp, windowSeconds, true);
      } catch (err) {
        // Refused for this account: the IP's budget is not charged for an attempt that never ran.
        await returnFailure(ipBucket, ip, failuresPerIp, windowSeconds);
        throw err;
      }
    }
    return {
      failed: async () => {},
      succeeded: async () => {
        await returnFailure(ipBucket, ip, failuresPerIp, windowSeconds);
        await clearAccount();
      },
    };
  }
  const [, accountFailures] = await Promise.all([
    assertUnderFailureLimit(ipBucket, ip, failuresPerIp, windowSeconds),
    accountKey === undefined ? 0 : assertUnderFailureLimit(accountBucket, accountKey, failuresPerAccountPerIp, windowSeconds),
  ]);
  return {
    failed: async () => {
      await countFailure(ipBucket, ip, failuresPerIp, windowSeconds);
      if (accountKey !== undefined) await countFailure(accountBucket, accountKey, failuresPerAccountPerIp, windowSeconds);
    },
    succeeded: async () => {
      if (accountFailures > 0) await clearAccount();
    },
  };
}

export type RateLimiterHealth = {
  store: "redis" | "memory";
  /** ok; `memory_fallback`: Redis is down, budgets are per instance; `failing_open`: requests pass unlimited. */
  status: "ok" | "memory_fallback" | "failing_open";
  since?: string;
};

/** What /api/health says about the limiter (`redisUp`: the health check's own Redis probe). */
export function rateLimiterHealth(redisUp: boolean | null): RateLimiterHealth {
  const failing = limiterFailingSlot.value;
  if (failing) return { store: redisUp === null ? "memory" : "redis", status: "failing_open", since: failing.since.toISOString() };
  if (redisUp === null) return { store: "memory", status: "ok" };
  return { store: "redis", status: redisUp ? "ok" : "memory_fallback" };
}
