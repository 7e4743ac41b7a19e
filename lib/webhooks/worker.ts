import { randomBytes } from "node:crypto";
import { env } from "@/lib/config/env";
import { decryptString } from "@/lib/crypto/encryption";
import { sqlPool } from "@/lib/db/client";
import { describeError, logger } from "@/lib/log/logger";
import { BlockedAddressError, postWebhook } from "./post-webhook";
import { nextAttemptDelayMs } from "./schedule";
import { webhookHeaders } from "./signing";

/**
 * The webhook worker. Each round claims due deliveries with
 * `FOR UPDATE SKIP LOCKED` and a lease, so any number of workers (in the web
 * processes, or `npm run worker`) share one outbox and never run the same
 * attempt twice; a worker that dies mid-delivery leaves a lease that lapses,
 * and the delivery is tried again later, never lost. A 2xx ends a delivery;
 * anything else (status, timeout, connection error) is retried on the
 * schedule (lib/webhooks/schedule.ts) until the last attempt fails it.
 */
const LEASE_MS = 60_000;

type Claimed = {
  id: string;
  event_id: string;
  url: string;
  signing: string;
  attempt_count: number;
  payload: Record<string, unknown>;
  secret_encrypted: string;
  environment: "test" | "production";
};

const iso = (ms: number) => new Date(ms).toISOString();

export async function claimDueDeliveries(limit: number): Promise<Claimed[]> {
  const pool = await sqlPool();
  const at = Date.now();
  const { rows } = await pool.query<Claimed>(
    `WITH due AS (
       SELECT id FROM webhook_deliveries
        WHERE state = 'pending' AND next_attempt_at <= $1::timestamptz
          AND (locked_until IS NULL OR locked_until <= $1::timestamptz)
        ORDER BY next_attempt_at
        LIMIT $2
        FOR UPDATE SKIP LOCKED
     ), claimed AS (
       UPDATE webhook_deliveries d
          SET locked_until = $3::timestamptz, attempt_count = d.attempt_count + 1,
              updated_at = $1::timestamptz
         FROM due WHERE d.id = due.id
       RETURNING d.id, d.event_id, d.url, d.signing, d.attempt_count, d.endpoint_id, d.app_id
     )
     SELECT c.id, c.event_id, c.url, c.signing, c.attempt_count, e.payload, ep.secret_encrypted, a.environment
       FROM claimed c
       JOIN webhook_events e ON e.id = c.event_id
       JOIN webhook_endpoints ep ON ep.id = c.endpoint_id
       JOIN apps a ON a.id = c.app_id`,
    [iso(at), limit, iso(at + LEASE_MS)],
  );
  return rows;
}

/** Runs one claimed attempt and records it. */
export async function attemptDelivery(d: Claimed): Promise<"succeeded" | "retry" | "failed"> {
  const config = env();
  const secret = d.signing === "invalid" ? `whsec_${randomBytes(32).toString("base64url")}` : decryptString(d.secret_encrypted);
  const body = JSON.stringify(d.payload);
  const started = Date.now();
  let status: number | null = null;
  let snippet: string | null = null;
  let error: string | null = null;
  let blocked = false;
  try {
    const res = await postWebhook(d.url, webhookHeaders(secret, d.event_id, body, Math.floor(started / 1000)), body, {
      timeoutMs: config.WEBHOOK_TIMEOUT_MS,
      allowPrivate: d.environment === "test",
    });
    status = res.status;
    snippet = res.body;
  } catch (err) {
    error = (err as Error).message;
    blocked = err instanceof BlockedAddressError;
  }
  const ended = Date.now();
  const ok = status !== null && status >= 200 && status < 300;
  // A bad-signature test delivery is sent once: the right answer to it is a 400.
  const delay = ok || blocked || d.signing === "invalid" ? null : nextAttemptDelayMs(d.attempt_count + 1);
  const outcome = ok ? "succeeded" : delay === null ? "failed" : "retry";
  const pool = await sqlPool();
  await pool.query(
    `WITH attempt AS (
       INSERT INTO webhook_attempts (id, delivery_id, number, started_at, duration_ms, status_code, response_snippet, error)
       VALUES (gen_random_uuid()::text, $1, $2, $3::timestamptz, $4, $5, $6, $7)
     ), delivery AS (
       UPDATE webhook_deliveries
          SET state = CASE WHEN $8 = 'retry' THEN 'pending' ELSE $8 END,
              last_status = $5, locked_until = NULL,
              next_attempt_at = COALESCE($9::timestamptz, next_attempt_at),
              delivered_at = CASE WHEN $8 = 'succeeded' THEN $10::timestamptz ELSE delivered_at END,
              updated_at = $10::timestamptz
        WHERE id = $1
     )
     UPDATE webhook_events
        SET state = CASE WHEN $8 = 'succeeded' THEN 'delivered' ELSE 'failed' END,
            delivered_at = CASE WHEN $8 = 'succeeded' THEN COALESCE(delivered_at, $10::timestamptz) ELSE delivered_at END
      WHERE id = $11 AND $8 <> 'retry' AND state <> 'delivered'`,
    [
      d.id,
      d.attempt_count,
      iso(started),
      ended - started,
      status,
      snippet,
      error,
      outcome,
      delay === null ? null : iso(ended + delay),
      iso(ended),
      d.event_id,
    ],
  );
  return outcome;
}

/** One round: claim up to `limit` due deliveries and attempt them in parallel. Returns how many ran. */
export async function deliverDueWebhooks(limit = env().WEBHOOK_CONCURRENCY): Promise<number> {
  const claimed = await claimDueDeliveries(limit);
  await Promise.all(
    claimed.map((d) =>
      attemptDelivery(d).catch((err) => logger.error("webhook attempt failed to record", { delivery: d.id, ...describeError(err) })),
    ),
  );
  return claimed.length;
}

type WorkerHandle = { stop(): Promise<void> };
const globalForWorker = globalThis as unknown as { __svcWebhookWorker?: WorkerHandle };

/** Starts the delivery loop once per process. */
export function startWebhookWorker(): WorkerHandle {
  if (globalForWorker.__svcWebhookWorker) return globalForWorker.__svcWebhookWorker;
  const config = env();
  let stopping = false;
  let wake: (() => void) | null = null;
  const loop = (async () => {
    while (!stopping) {
      let ran = 0;
      try {
        ran = await deliverDueWebhooks(config.WEBHOOK_CONCURRENCY);
      } catch (err) {
        logger.error("webhook worker round failed", describeError(err));
      }
      if (ran < config.WEBHOOK_CONCURRENCY && !stopping) {
        await new Promise<void>((resolve) => {
          wake = resolve;
          setTimeout(resolve, config.WEBHOOK_POLL_MS).unref();
        });
        wake = null;
      }
    }
  })();
  const handle: WorkerHandle = {
    async stop() {
      stopping = true;
      (wake as (() => void) | null)?.();
      await loop;
      globalForWorker.__svcWebhookWorker = undefined;
    },
  };
  globalForWorker.__svcWebhookWorker = handle;
  return handle;
}
