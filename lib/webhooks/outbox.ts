import { randomBytes } from "node:crypto";
import { now as clockNow } from "@/lib/clock";
import type { Tx } from "@/lib/db/client";
import { isRecoverySession } from "@/lib/workflows/recovery-purpose";
import { isSessionEventStatus, recoveryEventType, sessionEventType, type SessionEventStatus } from "./event-types";
import { prepareQuery, runPreparedInTransaction, typedSql } from "@/lib/db/typed-sql";

type SessionForEvent = { id: string; appId: string; vendorData: string | null; callbackUrl: string | null; workflowSnapshot?: unknown };

/**
 * The event type of a session's outcome: an account-recovery session (its
 * workflow's purpose, lib/org/recovery/) that ends sends `verify.approved`
 * when approved and `verify.declined` for any other end; everything else the
 * verification types.
 */
function eventTypeOf(session: SessionForEvent, status: SessionEventStatus): string {
  if (isRecoverySession(session.workflowSnapshot) && status !== "IN_REVIEW") return recoveryEventType(status === "APPROVED" ? "pass" : "fail");
  return sessionEventType(status);
}

export function newEventId(prefix = "evt_"): string {
  return `${prefix}${randomBytes(12).toString("hex")}`;
}

/**
 * Endpoints of `appId` about to receive deliveries, read and locked FOR KEY
 * SHARE until the caller's transaction ends. Deleting an endpoint
 * (lib/tenancy/webhook-endpoints.ts) locks it FOR UPDATE first, so a delete
 * either waits for this transaction and then cancels the deliveries it
 * wrote with the endpoint's other pending ones, or went first and the
 * endpoint is not returned: no delivery is ever written for a deleted
 * endpoint, nor left pending after its deletion. `deliverable`: only
 * active, approved endpoints (the targets of an app's events).
 */
export async function lockEndpointsForDelivery(tx: Tx, appId: string, which: { id: string } | { deliverable: true; url?: string }) {
  if ("id" in which) return runPreparedInTransaction(tx, endpointsForDelivery.byId, { appId, id: which.id });
  if (which.url !== undefined) return runPreparedInTransaction(tx, endpointsForDelivery.deliverableAt, { appId, url: which.url });
  return runPreparedInTransaction(tx, endpointsForDelivery.deliverable, { appId });
}

/** The app's endpoints, oldest first, share-locked against a delete while the event is queued. */
const endpointsOf = (appId: string) =>
  typedSql.selectFrom("webhook_endpoints").select(["id", "url"]).where("app_id", "=", appId).orderBy("created_at").orderBy("id").forKeyShare();

const endpointsForDelivery = {
  byId: prepareQuery("webhook_endpoint_by_id_key_share", (v: { appId: string; id: string }) => endpointsOf(v.appId).where("id", "=", v.id)),
  deliverable: prepareQuery("webhook_endpoints_deliverable_key_share", (v: { appId: string }) =>
    endpointsOf(v.appId).where("active", "=", true).where("approved", "=", true),
  ),
  deliverableAt: prepareQuery("webhook_endpoints_deliverable_at_key_share", (v: { appId: string; url: string }) =>
    endpointsOf(v.appId).where("active", "=", true).where("approved", "=", true).where("url", "=", v.url),
  ),
};

/**
 * The endpoints an event of this app goes to: the session's `callback` (the
 * approved webhook it matched at creation) when it has one, else every
 * active, approved webhook of the app. A disabled (inactive) webhook gets no
 * new events: they are not queued for it, even after it is enabled again.
 */
async function deliveryTargets(tx: Tx, appId: string, callbackUrl: string | null) {
  return lockEndpointsForDelivery(tx, appId, { deliverable: true, ...(callbackUrl ? { url: callbackUrl } : {}) });
}

/**
 * Writes an event and its deliveries in the caller's transaction, so an
 * event exists exactly when the change that caused it committed; the
 * webhook worker picks the deliveries up (lib/webhooks/worker.ts).
 */
export async function enqueueEvent(
  tx: Tx,
  input: {
    appId: string;
    sessionId: string | null;
    payload: Record<string, unknown> & { event_id: string; type: string };
    callbackUrl: string | null;
    test?: boolean;
    /** Only for test tooling: deliver to this endpoint (locked by lockEndpointsForDelivery in `tx`), once per entry ("invalid" signs with a wrong secret). */
    endpoints?: Array<{ id: string; url: string; signing: "valid" | "invalid" }>;
  },
) {
  const at = clockNow();
  const targets = input.endpoints ?? (await deliveryTargets(tx, input.appId, input.callbackUrl)).map((e) => ({ ...e, signing: "valid" as const }));
  await tx.webhookEvent.create({
    data: {
      id: input.payload.event_id,
      appId: input.appId,
      sessionId: input.sessionId,
      type: input.payload.type,
      payload: input.payload as object,
      targetUrl: input.callbackUrl,
      test: input.test ?? false,
      state: targets.length ? "pending" : "no_target",
    },
  });
  if (targets.length) {
    await tx.webhookDelivery.createMany({
      data: targets.map((t) => ({
        eventId: input.payload.event_id,
        appId: input.appId,
        endpointId: t.id,
        url: t.url,
        signing: t.signing,
        nextAttemptAt: at,
      })),
    });
  }
  return input.payload;
}

/** A session's verification event (spec 6 payload) for its new status. */
export async function enqueueSessionEvent(tx: Tx, session: SessionForEvent, status: string, occurredAt: Date) {
  if (!isSessionEventStatus(status)) throw new Error(`No event type for session status ${status}`);
  const payload = {
    event_id: newEventId(),
    type: eventTypeOf(session, status),
    session_id: session.id,
    status,
    vendor_data: session.vendorData,
    decision: status.toLowerCase(),
    occurred_at: occurredAt.toISOString(),
  };
  return enqueueEvent(tx, { appId: session.appId, sessionId: session.id, payload, callbackUrl: session.callbackUrl });
}
