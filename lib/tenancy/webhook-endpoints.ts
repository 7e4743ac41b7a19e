import { db } from "@/lib/db/client";
import { encryptString } from "@/lib/crypto/encryption";
import { ApiError } from "@/lib/http/api-error";
import { parseOrThrow } from "@/lib/http/validation";
import { allowedWebhookNetworks } from "@/lib/webhooks/allowed-networks";
import { presentWebhookEndpoint } from "@/lib/webhooks/deliveries";
import { newWebhookSecret } from "./credentials";
import { webhookUrlSchema } from "./schemas";

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
 * Replaces the signing secret of a webhook of `appId` (another app's is not
 * found); deliveries from now on are signed with the new one, which is
 * returned here once and stored encrypted.
 */
export async function rotateWebhookSecret(appId: string, webhookId: string) {
  const prisma = await db();
  const secret = newWebhookSecret();
  const result = await prisma.webhookEndpoint.updateMany({
    where: { id: webhookId, appId },
    data: { secretEncrypted: encryptString(secret) },
  });
  if (result.count === 0) throw new ApiError("not_found", { message: "Webhook not found" });
  return { webhookId, secret };
}
