import { recordAudit } from "@/lib/audit/record-audit";
import { db, type Tx } from "@/lib/db/client";
import { encryptString } from "@/lib/crypto/encryption";
import { ApiError } from "@/lib/http/api-error";
import { parseOrThrow } from "@/lib/http/validation";
import { allowedWebhookNetworks } from "@/lib/webhooks/allowed-networks";
import { cancelPendingDeliveries, presentWebhookEndpoint } from "@/lib/webhooks/deliveries";
import { now } from "@/lib/clock";
import { newWebhookSecret } from "./credentials";
import { previousExpiry } from "./roll-window";
import { webhookUrlSchema } from "./schemas";
import { prepareQuery, runPreparedInTransaction, typedSql } from "@/lib/db/typed-sql";

/** The app's webhook endpoint, row-locked for the transaction (a secret rotation, a delete). */
const endpointForUpdate = prepareQuery("webhook_endpoint_for_update", (v: { id: string; appId: string }) =>
  typedSql.selectFrom("webhook_endpoints").select(["url", "secret_encrypted"]).where("id", "=", v.id).where("app_id", "=", v.appId).forUpdate(),
);

/**
 * A webhook endpoint of an app. The signing secret is generated here, shown
 * once to the developer, and stored encrypted (the signer needs it back).
 * `approved` gates use as a per-session `callback` (spec 2.2) and as a
 * target of the app's events. The URL is checked by webhookUrlSchema (HTTPS;
 * http://localhost for test apps; no refused IP literal for production apps).
 * The CLI (`webhook:create`) and the portal both register through here.
 */
export async function createWebhookEndpoint(input: { appId: string; url: string; approve?: boolean }) {
  const prisma = await db();
  const app = await prisma.app.findUnique({ where: { id: input.appId } });
  if (!app) throw new ApiError("not_found", { message: "App not found" });
  const url = parseOrThrow(webhookUrlSchema(app.environment, allowedWebhookNetworks()), input.url, "url");
  const secret = newWebhookSecret();
  const endpoint = await prisma.webhookEndpoint.create({
    data: { appId: app.id, url, secretEncrypted: encryptString(secret), approved: input.approve ?? false },
  });
  return { webhookId: endpoint.id, url: endpoint.url, secret, approved: endpoint.approved, active: endpoint.active };
}

/**
 * Approves a webhook of `appId` (another app's is not found): from now on it
 * receives the app's events and may be named as a session's `callback`.
 * Approving an approved webhook changes nothing.
 */
export async function approveWebhookEndpoint(appId: string, webhookId: string) {
  const prisma = await db();
  const result = await prisma.webhookEndpoint.updateMany({ where: { id: webhookId, appId }, data: { approved: true } });
  if (result.count === 0) throw new ApiError("not_found", { message: "Webhook not found" });
  return presentWebhookEndpoint(await prisma.webhookEndpoint.findUniqueOrThrow({ where: { id: webhookId } }));
}

/**
 * Rolls the signing secret of a webhook of `appId` (another app's is not
 * found): deliveries from now on are signed with the new one, returned here
 * once and stored encrypted, and for `expireInSeconds` (0: not at all) with
 * the replaced one too (lib/webhooks/signing.ts), so a receiver still holding
 * it verifies until it has the new one. A roll during another roll's window
 * ends that window: the secret it replaces becomes the previous one.
 * Audited as `webhook.secret_rotated` with when the previous one expires.
 */
export async function rotateWebhookSecret(appId: string, webhookId: string, expireInSeconds: number, who: WebhookActor) {
  const prisma = await db();
  const secret = newWebhookSecret();
  const previousExpiresAt = previousExpiry(now(), expireInSeconds);
  return prisma.$transaction(async (tx) => {
    const [current] = await runPreparedInTransaction(tx, endpointForUpdate, { id: webhookId, appId });
    if (!current) throw new ApiError("not_found", { message: "Webhook not found" });
    const endpoint = await tx.webhookEndpoint.update({
      where: { id: webhookId },
      data: {
        secretEncrypted: encryptString(secret),
        previousSecretEncrypted: previousExpiresAt ? current.secret_encrypted : null,
        previousSecretExpiresAt: previousExpiresAt,
      },
    });
    await recordAudit(tx, {
      organizationId: await organizationOf(tx, appId),
      appId,
      actor: who.actor,
      action: "webhook.secret_rotated",
      target: webhookId,
      data: { url: endpoint.url, previous_secret_expires_at: previousExpiresAt?.toISOString() ?? null },
      requestId: who.requestId,
    });
    return { webhookId, secret, previousSecretExpiresAt: previousExpiresAt, webhook: presentWebhookEndpoint(endpoint) };
  });
}

/** Who asked for a change to a webhook, as the audit trail names them (lib/audit/actors.ts) and the request. */
export type WebhookActor = { actor: string; requestId?: string };

/** The organization of `appId`, for the audit row (the app exists: its webhook was found). */
async function organizationOf(tx: Tx, appId: string): Promise<string> {
  return (await tx.app.findUniqueOrThrow({ where: { id: appId }, select: { organizationId: true } })).organizationId;
}

/**
 * Disables (`active: false`) or enables a webhook of `appId` (another app's
 * is not found), audited as `webhook.disabled` / `webhook.enabled`. A
 * disabled webhook gets no new events (they are not queued for it, and are
 * not sent later) and is no session's `callback`; its pending deliveries
 * are held, not attempted, and go out when it is enabled again (a test
 * event or a resend sent to it meanwhile is held the same way). An attempt
 * already in flight when it is disabled finishes. Setting the state it
 * already has changes nothing and records nothing.
 */
export async function setWebhookEndpointActive(appId: string, webhookId: string, active: boolean, who: WebhookActor) {
  const prisma = await db();
  return prisma.$transaction(async (tx) => {
    // Changes (and locks) the row only when it is in the other state; then reads it as it is now.
    const changed = await tx.webhookEndpoint.updateMany({ where: { id: webhookId, appId, active: !active }, data: { active } });
    const current = await tx.webhookEndpoint.findFirst({ where: { id: webhookId, appId } });
    if (!current) throw new ApiError("not_found", { message: "Webhook not found" });
    if (changed.count > 0) {
      await recordAudit(tx, {
        organizationId: await organizationOf(tx, appId),
        appId,
        actor: who.actor,
        action: active ? "webhook.enabled" : "webhook.disabled",
        target: webhookId,
        data: { url: current.url },
        requestId: who.requestId,
      });
    }
    return presentWebhookEndpoint(current);
  });
}

export type DeletedWebhook = { webhook_id: string; deleted: true; cancelled_deliveries: number };

/**
 * Deletes a webhook of `appId` (another app's is not found), for good: its
 * signing secret goes with it, its pending deliveries end `cancelled`
 * (cancelPendingDeliveries) and are never attempted again, and its past
 * deliveries stay in the log (their `webhook_id` null, their URL kept).
 * Audited as `webhook.deleted` with the URL and how many were cancelled.
 * The endpoint row is locked FOR UPDATE first, so an event being queued for
 * it at the same moment either finishes first (and its delivery is
 * cancelled here) or no longer finds it (lockEndpointsForDelivery).
 */
export async function deleteWebhookEndpoint(appId: string, webhookId: string, who: WebhookActor): Promise<DeletedWebhook> {
  const prisma = await db();
  return prisma.$transaction(async (tx) => {
    const [locked] = await runPreparedInTransaction(tx, endpointForUpdate, { id: webhookId, appId });
    if (!locked) throw new ApiError("not_found", { message: "Webhook not found" });
    const cancelled = await cancelPendingDeliveries(tx, webhookId);
    await tx.webhookEndpoint.delete({ where: { id: webhookId } });
    await recordAudit(tx, {
      organizationId: await organizationOf(tx, appId),
      appId,
      actor: who.actor,
      action: "webhook.deleted",
      target: webhookId,
      data: { url: locked.url, cancelled_deliveries: cancelled },
      requestId: who.requestId,
    });
    return { webhook_id: webhookId, deleted: true, cancelled_deliveries: cancelled };
  });
}
