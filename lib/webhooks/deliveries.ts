import { previousWhileLive } from "@/lib/crypto/rolled-secret";
import { now } from "@/lib/clock";
import { db, type Tx } from "@/lib/db/client";
import { afterCursor, keysetPage } from "@/lib/http/keyset-cursor";
import { ApiError } from "@/lib/http/api-error";
import type { Prisma, WebhookEndpoint } from "@/generated/prisma/client";
import { vocabularyValue } from "@/lib/contract-vocabulary";
import { EVENT_TYPES, SESSION_EVENT_STATUSES } from "./event-types";
import { DELIVERY_STATES, type DeliveryState } from "./kinds";
import { lockEndpointsForDelivery } from "./outbox";

const DELIVERY_INCLUDE = {
  attempts: { orderBy: { number: "asc" } },
  event: { select: { type: true, test: true, sessionId: true, payload: true } },
  endpoint: { select: { active: true } },
} as const satisfies Prisma.WebhookDeliveryInclude;

type DeliveryRow = Prisma.WebhookDeliveryGetPayload<{ include: typeof DELIVERY_INCLUDE }>;

/**
 * Deliveries with their attempts from one snapshot. Prisma loads the
 * attempts in a second query; without a shared snapshot a worker closing an
 * attempt in between showed a delivery still due at its old time next to the
 * attempt that had already failed and moved it on.
 */
async function findDeliveries(args: Omit<Prisma.WebhookDeliveryFindManyArgs, "include">): Promise<DeliveryRow[]> {
  const prisma = await db();
  return prisma.$transaction((tx) => tx.webhookDelivery.findMany({ ...args, include: DELIVERY_INCLUDE }), {
    isolationLevel: "RepeatableRead",
  });
}

/** The session status the event reports (its payload's `status`). */
function eventStatus(payload: Prisma.JsonValue) {
  const status = payload && typeof payload === "object" && !Array.isArray(payload) ? payload.status : null;
  return typeof status === "string" ? vocabularyValue(SESSION_EVENT_STATUSES, status, "event status") : null;
}

/** A pending delivery whose webhook is disabled: not attempted until the webhook is enabled again. */
function isHeld(d: DeliveryRow): boolean {
  return d.state === "pending" && d.endpoint?.active === false;
}

/** One delivery as the log shows it (API, CLI and portal): its state and every attempt, oldest first. */
function presentDelivery(d: DeliveryRow) {
  const held = isHeld(d);
  return {
    delivery_id: d.id,
    event_id: d.eventId,
    event_type: vocabularyValue(EVENT_TYPES, d.event.type, "event type"),
    test: d.event.test,
    session_id: d.event.sessionId,
    status: eventStatus(d.event.payload),
    /** The bad-signature test delivery: signed with a wrong secret on purpose. */
    bad_signature: d.signing === "invalid",
    forgery: forgeryVerdict(d.signing, d.lastStatus),
    /** Null once the webhook was deleted. */
    webhook_id: d.endpointId,
    url: d.url,
    state: vocabularyValue(DELIVERY_STATES, d.state, "delivery state"),
    held,
    attempt_count: d.attemptCount,
    next_attempt_at: d.state === "pending" && !held ? d.nextAttemptAt.toISOString() : null,
    last_status: d.lastStatus,
    delivered_at: d.deliveredAt?.toISOString() ?? null,
    created_at: d.createdAt.toISOString(),
    attempts: d.attempts.map((a) => ({
      number: a.number,
      outcome: attemptOutcome(a.outcome),
      started_at: a.startedAt.toISOString(),
      ended_at: a.endedAt?.toISOString() ?? null,
      duration_ms: a.durationMs,
      status_code: a.statusCode,
      response_snippet: a.responseSnippet,
      error: a.error,
    })),
  };
}

export type PresentedDelivery = ReturnType<typeof presentDelivery>;

/** The delivery log of an app: newest first, each with its attempts. */
export async function listDeliveries(appId: string, limit = 100) {
  const rows = await findDeliveries({
    where: { appId },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: limit,
  });
  return rows.map(presentDelivery);
}

export const DELIVERY_PAGE_SIZE = 20;

/**
 * One page of an app's delivery log, newest first, with the cursor of the
 * next page (null at the end); optionally only one webhook's deliveries
 * and/or one state. Keyset pagination on (created_at, id) over the
 * deliveries' (app_id, created_at) index.
 */
export async function listDeliveryPage(
  appId: string,
  options: { cursor?: string; webhookId?: string; state?: DeliveryState; limit?: number } = {},
) {
  const limit = Math.min(Math.max(options.limit ?? DELIVERY_PAGE_SIZE, 1), 100);
  const rows = await findDeliveries({
    where: {
      appId,
      ...(options.webhookId ? { endpointId: options.webhookId } : {}),
      ...(options.state ? { state: options.state } : {}),
      ...afterCursor(options.cursor),
    },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: limit + 1,
  });
  const { page, nextCursor } = keysetPage(rows, limit);
  return { deliveries: page.map(presentDelivery), next_cursor: nextCursor };
}

/**
 * An attempt's outcome in the log: "succeeded" (2xx), "failed", "in_flight"
 * (being sent now), or "interrupted" (its worker stopped mid-attempt; the
 * POST may have reached the receiver, and the delivery was tried again).
 */
/**
 * What the bad-signature test shows about the receiver (null for every
 * other delivery): `refused` when it answered 4xx (it checks signatures),
 * `accepted` when it answered 2xx (it took a forgery: the receiver's
 * failure, although the delivery "succeeded"), `unanswered` while no
 * answer says either (pending, a 5xx, no connection).
 */
export type ForgeryVerdict = "refused" | "accepted" | "unanswered";

export function forgeryVerdict(signing: string, lastStatus: number | null): ForgeryVerdict | null {
  if (signing !== "invalid") return null;
  if (lastStatus !== null && lastStatus >= 200 && lastStatus < 300) return "accepted";
  if (lastStatus !== null && lastStatus >= 400 && lastStatus < 500) return "refused";
  return "unanswered";
}

const ATTEMPT_OUTCOMES = ["succeeded", "failed", "in_flight", "interrupted"] as const;

function attemptOutcome(stored: string | null) {
  return stored === null ? "in_flight" : vocabularyValue(ATTEMPT_OUTCOMES, stored, "attempt outcome");
}

/** The app a delivery belongs to (for tools that name only the delivery). */
export async function deliveryAppId(deliveryId: string): Promise<string> {
  const prisma = await db();
  const row = await prisma.webhookDelivery.findUnique({ where: { id: deliveryId }, select: { appId: true } });
  if (!row) throw new ApiError("not_found", { message: "Delivery not found" });
  return row.appId;
}

export type ResentDelivery = { delivery_id: string; event_id: string; resent_from: string };

/**
 * Sends an event again: a new delivery (its own attempts) of the same event
 * id to the same endpoint, due now (the worker sends it). `commit`, when
 * given, runs in the new delivery's transaction with the answer (the
 * Idempotency-Key's stored answer: a retry after a crash replays it instead
 * of sending the event a third time).
 */
export async function resendDelivery(appId: string, deliveryId: string, commit?: (tx: Tx, resent: ResentDelivery) => Promise<void>): Promise<ResentDelivery> {
  const prisma = await db();
  const original = await prisma.webhookDelivery.findFirst({ where: { id: deliveryId, appId } });
  if (!original) throw new ApiError("not_found", { message: "Delivery not found" });
  return prisma.$transaction(async (tx) => {
    const [endpoint] = original.endpointId ? await lockEndpointsForDelivery(tx, appId, { id: original.endpointId }) : [];
    if (!endpoint) throw new ApiError("not_found", { message: "The delivery's webhook was deleted" });
    const copy = await tx.webhookDelivery.create({
      data: {
        eventId: original.eventId,
        appId: original.appId,
        endpointId: endpoint.id,
        url: original.url,
        signing: original.signing,
        nextAttemptAt: now(),
      },
    });
    const resent: ResentDelivery = { delivery_id: copy.id, event_id: copy.eventId, resent_from: original.id };
    if (commit) await commit(tx, resent);
    return resent;
  });
}

/**
 * A deleted webhook's pending deliveries end `cancelled` and are never
 * attempted again (an attempt already in flight still records its outcome,
 * and a 2xx to it still counts as succeeded); its other deliveries stay in
 * the log as they were. Events left with only cancelled deliveries are
 * cancelled too. Runs in the delete's transaction, with the endpoint locked
 * (no new delivery can be written for it meanwhile). Returns how many were
 * cancelled.
 */
export async function cancelPendingDeliveries(tx: Tx, endpointId: string): Promise<number> {
  const pending = await tx.webhookDelivery.findMany({ where: { endpointId, state: "pending" }, select: { eventId: true } });
  if (pending.length === 0) return 0;
  const { count } = await tx.webhookDelivery.updateMany({
    where: { endpointId, state: "pending" },
    data: { state: "cancelled", lockedUntil: null, updatedAt: now() },
  });
  await tx.webhookEvent.updateMany({
    where: { id: { in: [...new Set(pending.map((p) => p.eventId))] }, state: "pending", deliveries: { every: { state: "cancelled" } } },
    data: { state: "cancelled" },
  });
  return count;
}

/** The app a webhook endpoint belongs to (for tools that name only the webhook). */
export async function webhookAppId(webhookId: string): Promise<string> {
  const prisma = await db();
  const row = await prisma.webhookEndpoint.findUnique({ where: { id: webhookId }, select: { appId: true } });
  if (!row) throw new ApiError("not_found", { message: "Webhook not found" });
  return row.appId;
}

/** A webhook endpoint as the API and the portal show it: never its secret. */
export function presentWebhookEndpoint(w: WebhookEndpoint) {
  return {
    webhook_id: w.id,
    url: w.url,
    approved: w.approved,
    active: w.active,
    created_at: w.createdAt.toISOString(),
    previous_secret_expires_at: previousSecretExpiry(w),
  };
}

/** While a rolled secret still signs (its overlap window), when it stops; else null. */
function previousSecretExpiry(w: Pick<WebhookEndpoint, "previousSecretEncrypted" | "previousSecretExpiresAt">): string | null {
  return previousWhileLive(w.previousSecretEncrypted, w.previousSecretExpiresAt, now()) ? w.previousSecretExpiresAt!.toISOString() : null;
}

export type PresentedWebhookEndpoint = ReturnType<typeof presentWebhookEndpoint>;

/** The app's webhook endpoints, without their secrets. */
export async function listWebhookEndpoints(appId: string) {
  const prisma = await db();
  const rows = await prisma.webhookEndpoint.findMany({ where: { appId }, orderBy: { createdAt: "asc" } });
  return rows.map(presentWebhookEndpoint);
}
