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
      started_at: a.startedAt.toISOString(),
      duration_ms: a.durationMs,
      status_code: a.statusCode,
      response_snippet: a.responseSnippet,
      error: a.error,
    })),
  }));
}

/** Sends an event again: a new delivery (its own attempts) of the same event id to the same endpoint, due now. */
export async function resendDelivery(deliveryId: string, appId?: string) {
  const prisma = await db();
  const original = await prisma.webhookDelivery.findUnique({ where: { id: deliveryId } });
  if (!original || (appId !== undefined && original.appId !== appId)) {
    throw new ApiError("not_found", { message: "Delivery not found" });
  }
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
