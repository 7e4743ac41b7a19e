import { previousWhileLive } from "@/lib/crypto/rolled-secret";
import { randomBytes } from "node:crypto";
import { expressionBuilder, sql, type Expression } from "kysely";
import type { DB } from "@/generated/kysely/database";
import { now } from "@/lib/clock";
import { env } from "@/lib/config/env";
import { decryptString } from "@/lib/crypto/encryption";
import { prepareQuery, runPrepared, typedSql } from "@/lib/db/typed-sql";
import { describeError, logger } from "@/lib/log/logger";
import { allowedWebhookNetworks } from "./allowed-networks";
import { attemptErrorText, BlockedAddressError, postWebhook } from "./post-webhook";
import { leaseMs, nextAttemptDelayMs } from "./schedule";
import { webhookHeaders } from "./signing";
import { processSlot } from "@/lib/process-slots";

/**
 * The webhook worker. It keeps up to WEBHOOK_CONCURRENCY deliveries in
 * flight and claims more as each one finishes, so a slow receiver holds only
 * its own slots. Claims use `FOR UPDATE SKIP LOCKED` and a lease, so any
 * number of workers (in the web processes, or `npm run worker`) share one
 * outbox and never run the same attempt twice; a claim never puts more than
 * WEBHOOK_CONCURRENCY_PER_ENDPOINT deliveries of one endpoint in flight
 * (live leases of every worker count), nor more than
 * WEBHOOK_CONCURRENCY_PER_APP of one app's, so one endpoint's backlog, or
 * one tenant's many endpoints, cannot fill the workers. The claim also
 * opens the attempt's row in the log before anything is sent, and the row
 * is closed with its outcome afterwards; a worker that dies mid-delivery
 * leaves an open row and a lease that lapses:
 * the next claim marks that row `interrupted` and tries the delivery again,
 * so nothing is lost and the log shows every POST that may have gone out.
 * A 2xx ends a delivery; anything else (status, timeout, connection error)
 * is retried on the schedule (lib/webhooks/schedule.ts) until the last
 * attempt fails it. Times come from the injected clock (lib/clock.ts).
 */

type ClaimValues = {
  at: Date;
  /** How many deliveries at most. */
  limit: number;
  leaseEnd: Date;
  perEndpoint: number;
  perApp: number;
};

/** `at` as the timestamptz it is compared with or stored as. */
function instant(at: Date) {
  const eb = expressionBuilder<DB, never>();
  return eb.cast<Date>(eb.val(at), "timestamptz");
}

/**
 * `n`, the live leases (of every worker) of the deliveries whose `column` is
 * `value` (the outer row's endpoint or app), counted up to `cap`.
 */
const liveLeases = (column: "endpoint_id" | "app_id", value: Expression<string | null>, cap: number, at: Date) =>
  typedSql
    .selectFrom((db) =>
      db
        .selectFrom("webhook_deliveries as l")
        .select((eb) => eb.lit(1).as("one"))
        .where("l.state", "=", sql.lit("pending"))
        .where(`l.${column}` as const, "=", value)
        .where("l.locked_until", ">", instant(at))
        .limit(cap)
        .as("live"),
    )
    .select((eb) => eb.cast<number>(eb.fn.countAll(), "integer").as("n"));

/** Due and not leased (a lapsed lease is a dead worker's: its delivery is due again). */
function dueAt(at: Date) {
  const eb = expressionBuilder<{ d: DB["webhook_deliveries"] }, "d">();
  return eb.and([
    eb("d.state", "=", sql.lit("pending")),
    eb("d.next_attempt_at", "<=", instant(at)),
    eb.or([eb("d.locked_until", "is", null), eb("d.locked_until", "<=", instant(at))]),
  ]);
}

/** The endpoint `id` is active (a disabled endpoint's deliveries are held: pending, not attempted). */
function endpointActive(id: Expression<string | null>) {
  const eb = expressionBuilder<DB, never>();
  return eb.exists(eb.selectFrom("webhook_endpoints as ep").select(eb.lit(1).as("one")).where("ep.id", "=", id).where("ep.active", "=", sql.lit(true)));
}

/**
 * The claim: up to `limit` due deliveries for one lease (until `leaseEnd`),
 * at most `perEndpoint` in flight per endpoint and `perApp` per app
 * (counting the live leases of every worker), and in the same statement
 * marks the attempts a dead worker left open on them as `interrupted` and
 * opens the new attempt rows (outcome NULL: in flight).
 *
 * `endpoints` walks the endpoints with pending deliveries (a loose index
 * scan); for each active one (a disabled endpoint's deliveries are held:
 * pending, not attempted, until it is enabled again), `endpoint_busy`
 * counts its live leases and `per_endpoint` takes its oldest due
 * deliveries up to the free slots; so the claim's cost
 * grows with the endpoints that have work, not with one endpoint's backlog.
 * `ranked` numbers each app's candidates, oldest first, and `app_busy`
 * counts each app's live leases; `candidates` keeps an app's candidates up to
 * its free slots (several endpoints of one app together too) and orders them
 * fairly: by the app's in-flight count once the candidate is taken, then
 * oldest first; so a free slot goes to the app with the least in flight, not
 * to the oldest backlog. Every order ends with the id: concurrent claims pick
 * the same rows, so SKIP LOCKED (and the lease re-checked on the locked row)
 * keeps them within both caps. tests/integration/webhooks-isolation.test.ts
 * checks its plan with EXPLAIN.
 */
export const claimStatement = prepareQuery("webhook_claim_due_deliveries", (v: ClaimValues) =>
  typedSql
    .withRecursive("endpoints(endpoint_id)", (db) =>
      db
        // The first endpoint, in a subquery of its own: its ORDER BY and LIMIT are not the union's.
        .selectFrom((db) =>
          db
            .selectFrom("webhook_deliveries")
            .select("endpoint_id")
            .where("state", "=", sql.lit("pending"))
            .orderBy("endpoint_id")
            .limit(sql.lit(1))
            .as("first"),
        )
        .select("first.endpoint_id")
        .unionAll((eb) =>
          eb
            .selectFrom("endpoints as e")
            .select((eb) =>
              eb
                .selectFrom("webhook_deliveries as d")
                .select("d.endpoint_id")
                .where("d.state", "=", sql.lit("pending"))
                .whereRef("d.endpoint_id", ">", "e.endpoint_id")
                .orderBy("d.endpoint_id")
                .limit(sql.lit(1))
                .as("endpoint_id"),
            )
            .where("e.endpoint_id", "is not", null),
        ),
    )
    .with("per_endpoint", (db) =>
      db
        .selectFrom("endpoints as e")
        .crossJoinLateral((eb) => liveLeases("endpoint_id", eb.ref("e.endpoint_id"), v.perEndpoint, v.at).as("endpoint_busy"))
        .crossJoinLateral((eb) =>
          eb
            .selectFrom("webhook_deliveries as d")
            .select(["d.id", "d.app_id", "d.next_attempt_at"])
            .whereRef("d.endpoint_id", "=", "e.endpoint_id")
            .where(dueAt(v.at))
            .orderBy("d.next_attempt_at")
            .orderBy("d.id")
            .limit((eb) => eb.fn<number>("greatest", [eb(eb.val(v.perEndpoint), "-", eb.ref("endpoint_busy.n")), eb.lit(0)]))
            .as("c"),
        )
        .select(["c.id", "c.app_id", "c.next_attempt_at"])
        .where("e.endpoint_id", "is not", null)
        .where((eb) => endpointActive(eb.ref("e.endpoint_id"))),
    )
    .with("ranked", (db) =>
      db
        .selectFrom("per_endpoint as p")
        .select((eb) => [
          "p.id",
          "p.app_id",
          "p.next_attempt_at",
          eb.fn
            .agg<number>("row_number")
            .over((ob) => ob.partitionBy("p.app_id").orderBy("p.next_attempt_at").orderBy("p.id"))
            .as("app_rank"),
        ]),
    )
    .with("app_busy", (db) =>
      db
        .selectFrom((db) => db.selectFrom("per_endpoint").select("app_id").distinct().as("a"))
        .crossJoinLateral((eb) => liveLeases("app_id", eb.ref("a.app_id"), v.perApp, v.at).as("busy"))
        .select(["a.app_id", "busy.n"]),
    )
    .with("candidates", (db) =>
      db
        .selectFrom("ranked as r")
        .innerJoin("app_busy as b", "b.app_id", "r.app_id")
        .select("r.id")
        .where((eb) => eb("r.app_rank", "<=", eb(eb.val(v.perApp), "-", eb.ref("b.n"))))
        .orderBy((eb) => eb("b.n", "+", eb.ref("r.app_rank")))
        .orderBy("r.next_attempt_at")
        .orderBy("r.id")
        .limit(v.limit),
    )
    .with("due", (db) =>
      db
        .selectFrom("webhook_deliveries as d")
        .select("d.id")
        .where("d.id", "in", (eb) => eb.selectFrom("candidates").select("candidates.id"))
        .where(dueAt(v.at))
        .where((eb) => endpointActive(eb.ref("d.endpoint_id")))
        .forUpdate()
        .skipLocked(),
    )
    .with("claimed", (db) =>
      db
        .updateTable("webhook_deliveries as d")
        .from("due")
        .set((eb) => ({ locked_until: instant(v.leaseEnd), attempt_count: eb("d.attempt_count", "+", eb.lit(1)), updated_at: instant(v.at) }))
        .whereRef("d.id", "=", "due.id")
        .returning(["d.id", "d.event_id", "d.url", "d.signing", "d.attempt_count", "d.endpoint_id", "d.app_id", "d.next_attempt_at"]),
    )
    .with("interrupted", (db) =>
      db
        .updateTable("webhook_attempts as a")
        .from("claimed as c")
        .set({ outcome: sql.lit("interrupted") })
        .whereRef("a.delivery_id", "=", "c.id")
        .where("a.outcome", "is", null),
    )
    .with("opened", (db) =>
      db
        .insertInto("webhook_attempts")
        .columns(["id", "delivery_id", "number", "started_at"])
        .expression((eb) =>
          eb
            .selectFrom("claimed as c")
            .select((eb) => [eb.cast<string>(eb.fn("gen_random_uuid"), "text").as("id"), "c.id as delivery_id", "c.attempt_count", instant(v.at).as("started_at")]),
        )
        .returning(["id", "delivery_id"]),
    )
    .selectFrom("claimed as c")
    .innerJoin("opened as o", "o.delivery_id", "c.id")
    .innerJoin("webhook_events as e", "e.id", "c.event_id")
    .innerJoin("webhook_endpoints as ep", "ep.id", "c.endpoint_id")
    .innerJoin("apps as a", "a.id", "c.app_id")
    .select((eb) => [
      "c.id",
      "o.id as attempt_id",
      "c.event_id",
      "c.url",
      "c.signing",
      "c.attempt_count",
      "c.app_id",
      eb.ref("e.payload").$castTo<Record<string, unknown>>().as("payload"),
      "ep.secret_encrypted",
      // The secret a roll replaced, and when it stops signing (lib/tenancy/webhook-endpoints.ts).
      "ep.previous_secret_encrypted",
      "ep.previous_secret_expires_at",
      "a.environment",
    ])
    .orderBy("c.next_attempt_at")
    .orderBy("c.id"),
);

type Claimed = NonNullable<(typeof claimStatement)["types"]>["rows"][number];

/** Claims up to `limit` due deliveries within the per-endpoint and per-app caps (claimStatement). */
export async function claimDueDeliveries(limit: number): Promise<Claimed[]> {
  const config = env();
  const at = now();
  return runPrepared(claimStatement, {
    at,
    limit,
    leaseEnd: new Date(at.getTime() + leaseMs()),
    perEndpoint: config.WEBHOOK_CONCURRENCY_PER_ENDPOINT,
    perApp: config.WEBHOOK_CONCURRENCY_PER_APP,
  });
}

class SigningError extends Error {}

/**
 * The secrets a delivery is signed with: the endpoint's, and during a roll's
 * overlap window (until `previous_secret_expires_at`) the one it replaced
 * too; for the bad-signature test delivery, one random secret.
 */
function signingSecrets(d: Claimed, at: Date): string[] {
  if (d.signing === "invalid") return [`whsec_${randomBytes(32).toString("base64url")}`];
  try {
    const previous = previousWhileLive(d.previous_secret_encrypted, d.previous_secret_expires_at, at);
    return previous ? [decryptString(d.secret_encrypted), decryptString(previous)] : [decryptString(d.secret_encrypted)];
  } catch (err) {
    // e.g. instances with different ENCRYPTION_KEYs: the operator's problem, retried like any failure.
    logger.error("webhook signing secret could not be decrypted", { delivery: d.id, ...describeError(err) });
    throw new SigningError("could not sign the delivery");
  }
}

/** Runs one claimed attempt and closes its row. */
export async function attemptDelivery(d: Claimed): Promise<"succeeded" | "retry" | "failed"> {
  const config = env();
  const startedAt = now();
  const clockStart = performance.now();
  let status: number | null = null;
  let snippet: string | null = null;
  let error: string | null = null;
  let blocked = false;
  try {
    const secrets = signingSecrets(d, startedAt);
    const body = JSON.stringify(d.payload);
    const res = await postWebhook(d.url, webhookHeaders(secrets, d.event_id, body, Math.floor(startedAt.getTime() / 1000)), body, {
      timeoutMs: config.WEBHOOK_TIMEOUT_MS,
      allowHttp: d.environment === "test",
      allowedNetworks: allowedWebhookNetworks(),
    });
    status = res.status;
    snippet = res.body;
  } catch (err) {
    error = attemptErrorText(err);
    blocked = err instanceof BlockedAddressError;
    const detail = err instanceof BlockedAddressError ? err.detail : (err as Error)?.message;
    if (detail !== error) {
      logger.warn("webhook attempt failed", { delivery: d.id, app: d.app_id, attempt: d.attempt_count, url: d.url, error, detail });
    }
  }
  const durationMs = Math.round(performance.now() - clockStart);
  const endedAt = now().getTime();
  const ok = status !== null && status >= 200 && status < 300;
  // A bad-signature test delivery is sent once: the right answer to it is a 400.
  const delay = ok || blocked || d.signing === "invalid" ? null : nextAttemptDelayMs(d.attempt_count + 1);
  const outcome = ok ? "succeeded" : delay === null ? "failed" : "retry";
  await closeAttempt(d, { outcome, attemptOutcome: ok ? "succeeded" : "failed", durationMs, status, snippet, error, endedAt, delay });
  return outcome;
}

type CloseValues = {
  attemptId: string;
  attemptOutcome: "succeeded" | "failed";
  durationMs: number;
  status: number | null;
  snippet: string | null;
  error: string | null;
  endedAt: Date;
  deliveryId: string;
  /** The claim this attempt ran under: a later claim of the delivery decides its state instead. */
  attemptCount: number;
  deliveryState: "pending" | "succeeded" | "failed";
  /** The next try (a retry), else the delivery keeps its time. */
  nextAttemptAt: Date | null;
  /** When it succeeded, else the delivery keeps its time. */
  deliveredAt: Date | null;
  succeeded: boolean;
  eventId: string;
  /** The delivery is over (succeeded or failed for good): the event says so. */
  settles: boolean;
  eventState: "delivered" | "failed";
};

/** The attempt's row closed, its delivery moved on and, once the delivery is over, its event: one statement (closeAttempt). */
const closeAttemptStatement = prepareQuery("webhook_close_attempt", (v: CloseValues) =>
  typedSql
    .with("attempt", (db) =>
      db
        .updateTable("webhook_attempts")
        .set({ outcome: v.attemptOutcome, ended_at: v.endedAt, duration_ms: v.durationMs, status_code: v.status, response_snippet: v.snippet, error: v.error })
        .where("id", "=", v.attemptId),
    )
    .with("delivery", (db) =>
      db
        .updateTable("webhook_deliveries")
        .set((eb) => ({
          state: v.deliveryState,
          last_status: v.status,
          locked_until: null,
          next_attempt_at: eb.fn.coalesce(eb.cast<Date | null>(eb.val(v.nextAttemptAt), "timestamptz"), "next_attempt_at"),
          delivered_at: eb.fn.coalesce(eb.cast<Date | null>(eb.val(v.deliveredAt), "timestamptz"), "delivered_at"),
          updated_at: v.endedAt,
        }))
        .where("id", "=", v.deliveryId)
        .where((eb) =>
          eb.or([
            eb.and([eb("state", "=", "pending"), eb("attempt_count", "=", v.attemptCount)]),
            eb.and([eb.cast<boolean>(eb.val(v.succeeded), "boolean"), eb("state", "<>", "succeeded")]),
          ]),
        )
        .returning("id"),
    )
    .updateTable("webhook_events")
    .set((eb) => ({
      state: v.eventState,
      delivered_at: eb.fn.coalesce("delivered_at", eb.cast<Date | null>(eb.val(v.deliveredAt), "timestamptz")),
    }))
    .where("id", "=", v.eventId)
    .where((eb) => eb.cast<boolean>(eb.val(v.settles), "boolean"))
    .where("state", "<>", "delivered")
    .where((eb) => eb.exists(eb.selectFrom("delivery").select(eb.lit(1).as("one")))),
);

/**
 * Closes an attempt's row and moves its delivery on. Only the delivery's
 * latest claim decides its state, except that a success always counts (an
 * attempt that outlived its lease may still have been acknowledged).
 */
async function closeAttempt(
  d: Claimed,
  r: {
    outcome: "succeeded" | "retry" | "failed";
    attemptOutcome: "succeeded" | "failed";
    durationMs: number;
    status: number | null;
    snippet: string | null;
    error: string | null;
    endedAt: number;
    delay: number | null;
  },
) {
  const succeeded = r.outcome === "succeeded";
  const endedAt = new Date(r.endedAt);
  await runPrepared(closeAttemptStatement, {
    attemptId: d.attempt_id,
    attemptOutcome: r.attemptOutcome,
    durationMs: r.durationMs,
    status: r.status,
    snippet: r.snippet,
    error: r.error,
    endedAt,
    deliveryId: d.id,
    attemptCount: d.attempt_count,
    deliveryState: r.outcome === "retry" ? "pending" : r.outcome,
    nextAttemptAt: r.delay === null ? null : new Date(r.endedAt + r.delay),
    deliveredAt: succeeded ? endedAt : null,
    succeeded,
    eventId: d.event_id,
    settles: r.outcome !== "retry",
    eventState: succeeded ? "delivered" : "failed",
  });
}

function recordingFailures(d: Claimed): Promise<unknown> {
  return attemptDelivery(d).catch((err) => logger.error("webhook attempt failed to record", { delivery: d.id, ...describeError(err) }));
}

/** One claim and its deliveries, awaited together (for tools and tests; the worker loop does not wait for a batch). Returns how many ran. */
export async function deliverDueWebhooks(limit = env().WEBHOOK_CONCURRENCY): Promise<number> {
  const claimed = await claimDueDeliveries(limit);
  await Promise.all(claimed.map(recordingFailures));
  return claimed.length;
}

type WorkerHandle = { stop(): Promise<void> };
const webhookWorkerSlot = processSlot<WorkerHandle>("webhookWorker");

/**
 * Starts the delivery loop once per process: up to WEBHOOK_CONCURRENCY
 * deliveries in flight, each on its own; a finished one wakes the loop to
 * claim more at once. When nothing more is due it waits WEBHOOK_POLL_MS (or
 * until a delivery finishes, which may free an endpoint's slot). `stop()`
 * claims nothing more and waits for the deliveries in flight.
 */
export function startWebhookWorker(): WorkerHandle {
  if (webhookWorkerSlot.value) return webhookWorkerSlot.value;
  const config = env();
  const inFlight = new Set<Promise<unknown>>();
  let stopping = false;
  /** A delivery finished since the last claim: its endpoint may have a free slot now. */
  let finished = false;
  let wake: (() => void) | null = null;
  const wakeUp = () => (wake as (() => void) | null)?.();
  const loop = (async () => {
    while (!stopping) {
      const free = config.WEBHOOK_CONCURRENCY - inFlight.size;
      let claimed: Claimed[] = [];
      finished = false;
      if (free > 0) {
        try {
          claimed = await claimDueDeliveries(free);
        } catch (err) {
          logger.error("webhook worker claim failed", describeError(err));
        }
      }
      for (const d of claimed) {
        const running = recordingFailures(d).finally(() => {
          inFlight.delete(running);
          finished = true;
          wakeUp();
        });
        inFlight.add(running);
      }
      // Claim again at once when every free slot was filled or a delivery finished meanwhile; else wait.
      if (stopping || finished || (free > 0 && claimed.length === free)) continue;
      await new Promise<void>((resolve) => {
        wake = resolve;
        if (free > 0) setTimeout(resolve, config.WEBHOOK_POLL_MS).unref();
      });
      wake = null;
    }
    await Promise.all(inFlight);
  })();
  const handle: WorkerHandle = {
    async stop() {
      stopping = true;
      wakeUp();
      await loop;
      webhookWorkerSlot.value = undefined;
    },
  };
  webhookWorkerSlot.value = handle;
  return handle;
}
