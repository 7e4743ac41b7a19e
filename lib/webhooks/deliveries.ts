import { now } from "@/lib/clock";
import { db } from "@/lib/db/client";
import { ApiError } from "@/lib/http/api-error";

/** The delivery log of an app: newest first, each with its attempts. */
export async function listDeliveries(appId: string, limit = 100) {
  const prisma = await db();
  const rows = await prisma.webhookDelivery.findMany({
    where: { appId },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: limit,
    include: { attempts: { orderBy: { number: "asc" } }, event: { select: { type: true, test: true, sessionId: true } } },
  });
  return rows.map((d) => ({
    delivery_id: d.id,
    event_id: d.eventId,
    event_type: d.event.type,
    test: d.event.test,
    session_id: d.event.sessionId,
    webhook_id: d.endpointId,
    url: d.url,
    state: d.state,
    attempt_count: d.attemptCount,
    next_attempt_at: d.state === "pending" ? d.nextAttemptAt.toISOString() : null,
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
  }));
}

/**
 * An attempt's outcome in the log: "succeeded" (2xx), "failed", "in_flight"
 * (being sent now), or "interrupted" (its worker stopped mid-attempt; the
 * POST may have reached the receiver, and the delivery was tried again).
 */
function attemptOutcome(stored: string | null): string {
  return stored ?? "in_flight";
}

/** The app a delivery belongs to (for tools that name only the delivery). */
export async function deliveryAppId(deliveryId: string): Promise<string> {
  const prisma = await db();
  const row = await prisma.webhookDelivery.findUnique({ where: { id: deliveryId }, select: { appId: true } });
  if (!row) throw new ApiError("not_found", { message: "Delivery not found" });
  return row.appId;
}

/** Sends an event again: a new delivery (its own attempts) of the same event id to the same endpoint, due now. */
export async function resendDelivery(appId: string, deliveryId: string) {
  const prisma = await db();
  const original = await prisma.webhookDelivery.findFirst({ where: { id: deliveryId, appId } });
  if (!original) throw new ApiError("not_found", { message: "Delivery not found" });
  const copy = await prisma.webhookDelivery.create({
    data: {
      eventId: original.eventId,
      appId: original.appId,
      endpointId: original.endpointId,
      url: original.url,
      signing: original.signing,
      nextAttemptAt: now(),
    },
  });
  return { delivery_id: copy.id, event_id: copy.eventId, resent_from: original.id };
}

/** The app a webhook endpoint belongs to (for tools that name only the webhook). */
export async function webhookAppId(webhookId: string): Promise<string> {
  const prisma = await db();
  const row = await prisma.webhookEndpoint.findUnique({ where: { id: webhookId }, select: { appId: true } });
  if (!row) throw new ApiError("not_found", { message: "Webhook not found" });
  return row.appId;
}

/** The app's webhook endpoints, without their secrets. */
export async function listWebhookEndpoints(appId: string) {
  const prisma = await db();
  const rows = await prisma.webhookEndpoint.findMany({ where: { appId }, orderBy: { createdAt: "asc" } });
  return rows.map((w) => ({
    webhook_id: w.id,
    url: w.url,
    approved: w.approved,
    active: w.active,
    created_at: w.createdAt.toISOString(),
  }));
}
