import { randomBytes } from "node:crypto";
import type { Tx } from "@/lib/db/client";
import { SESSION_EVENT_TYPES } from "./event-types";

type SessionForEvent = { id: string; appId: string; vendorData: string | null; callbackUrl: string | null };

/**
 * Writes a verification event to the outbox in the caller's transaction (the
 * one that changed the session's state), so an event exists exactly when the
 * change committed. The webhook worker delivers it: to the session's
 * `callback` when it has one, else to the app's active, approved webhooks.
 */
export async function enqueueSessionEvent(tx: Tx, session: SessionForEvent, status: string, occurredAt: Date) {
  const type = SESSION_EVENT_TYPES[status];
  if (!type) throw new Error(`No event type for session status ${status}`);
  const eventId = `evt_${randomBytes(12).toString("hex")}`;
  const payload = {
    event_id: eventId,
    type,
    session_id: session.id,
    status,
    vendor_data: session.vendorData,
    decision: status.toLowerCase(),
    occurred_at: occurredAt.toISOString(),
  };
  await tx.webhookEvent.create({
    data: { id: eventId, appId: session.appId, sessionId: session.id, type, payload, targetUrl: session.callbackUrl },
  });
  return payload;
}
