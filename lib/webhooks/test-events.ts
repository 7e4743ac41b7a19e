import { randomBytes } from "node:crypto";
import { now } from "@/lib/clock";
import { db, type Tx } from "@/lib/db/client";
import { ApiError } from "@/lib/http/api-error";
import { enqueueEvent, lockEndpointsForDelivery, newEventId } from "./outbox";
import { sessionEventType, type SessionEventStatus } from "./event-types";
import type { TestEventKind } from "./kinds";

export { TEST_EVENT_KINDS, type TestEventKind } from "./kinds";

/** The session status a test event simulates; duplicate and bad_signature send an approved event. */
function testEventStatus(kind: TestEventKind): SessionEventStatus {
  if (kind === "declined") return "DECLINED";
  if (kind === "in_review") return "IN_REVIEW";
  if (kind === "expired") return "EXPIRED";
  return "APPROVED";
}

/**
 * Spec 6 test tooling: a simulated event sent to one webhook of `appId`
 * (another app's webhook is not found), signed with its real secret, with
 * `test: true` and a session id beginning `sess_test_`. It touches no
 * session, proof or identity.
 * - approved / declined / in_review / expired: one event of that status,
 *   typed as a real one (lib/webhooks/event-types.ts);
 * - duplicate: an approved event delivered twice with the same event id
 *   (the receiver must process it once);
 * - bad_signature: an approved event signed with a wrong secret (the
 *   receiver must answer 400).
 * A disabled webhook gets the event too, held until it is enabled again.
 * The event and its deliveries are written in one transaction (the worker
 * sends them); `commit`, when given, runs in it with what was sent (the
 * Idempotency-Key's stored answer: a retry after a crash replays it instead
 * of sending a second event).
 */
export async function sendTestEvent(appId: string, webhookId: string, kind: TestEventKind, commit?: (tx: Tx, sent: SentTestEvent) => Promise<void>): Promise<SentTestEvent> {
  const prisma = await db();
  const status = testEventStatus(kind);
  const payload = {
    event_id: newEventId("evt_test_"),
    type: sessionEventType(status),
    session_id: `sess_test_${randomBytes(12).toString("hex")}`,
    status,
    vendor_data: null,
    decision: status.toLowerCase(),
    occurred_at: now().toISOString(),
    test: true,
  };
  return prisma.$transaction(async (tx) => {
    const [endpoint] = await lockEndpointsForDelivery(tx, appId, { id: webhookId });
    if (!endpoint) throw new ApiError("not_found", { message: "Webhook not found" });
    const endpoints =
      kind === "duplicate"
        ? [{ ...endpoint, signing: "valid" as const }, { ...endpoint, signing: "valid" as const }]
        : [{ ...endpoint, signing: kind === "bad_signature" ? ("invalid" as const) : ("valid" as const) }];
    const sent = { event_id: payload.event_id, kind, deliveries: endpoints.length, payload };
    await enqueueEvent(tx, { appId, sessionId: null, payload, callbackUrl: null, test: true, endpoints });
    if (commit) await commit(tx, sent);
    return sent;
  });
}

export type SentTestEvent = { event_id: string; kind: TestEventKind; deliveries: number; payload: Record<string, unknown> };

/** What the API and the portal answer for a test event (202). */
export function presentTestEvent(sent: SentTestEvent) {
  return { event_id: sent.event_id, kind: sent.kind, deliveries: sent.deliveries };
}
