import type { App } from "@/generated/prisma/client";
import { env } from "@/lib/config/env";
import { now } from "@/lib/clock";
import { db } from "@/lib/db/client";
import { hashSecret, randomToken } from "@/lib/crypto/secrets";
import { sessionCostCents } from "@/lib/billing/prices";
import { ApiError } from "@/lib/http/api-error";
import { resolveAccountFromAccessToken } from "@/lib/accounts/resolve-access-token";
import { findWorkflow } from "@/lib/workflows/workflows";
import type { WorkflowSettings } from "@/lib/workflows/settings";
import type { CreateSessionInput } from "./schemas";
import type { WorkflowSnapshot } from "./present";

function isLocalHttp(url: URL) {
  return url.protocol === "http:" && ["localhost", "127.0.0.1", "[::1]"].includes(url.hostname);
}

/**
 * Spec 2.2: `callback` must exactly match an active, approved HTTPS webhook
 * of the app (a test app may also use http on localhost, as its webhooks may).
 */
async function assertCallbackAllowed(app: App, callback: string) {
  let url: URL;
  try {
    url = new URL(callback);
  } catch {
    throw new ApiError("callback_not_allowed", { message: "callback must be the exact URL of an approved webhook" });
  }
  const secure = url.protocol === "https:" || (app.environment === "test" && isLocalHttp(url));
  const prisma = await db();
  const match = await prisma.webhookEndpoint.findFirst({
    where: { appId: app.id, url: callback, active: true, approved: true },
  });
  if (!secure || !match) {
    throw new ApiError("callback_not_allowed", {
      message: "callback does not exactly match an active, approved HTTPS webhook of this app",
    });
  }
}

function hostedUrl(sessionId: string, token: string): string {
  // The token rides in the fragment: browsers never send it to servers or in Referer headers.
  return `${env().PUBLIC_BASE_URL}/verify/${sessionId}#token=${encodeURIComponent(token)}`;
}

/** POST /api/v2/session. */
export async function createSession(app: App, input: CreateSessionInput) {
  const workflow = await findWorkflow(app, input.workflow_id);
  if (!workflow.isActive) {
    throw new ApiError("workflow_not_found", { message: "Workflow is not active: activate it to create sessions" });
  }
  if (input.redirect_url && app.environment === "production" && new URL(input.redirect_url).protocol !== "https:") {
    throw new ApiError("invalid_request", {
      message: "redirect_url must use https for production apps",
      data: { errors: { redirect_url: ["Must use https for production apps"] } },
    });
  }
  if (input.callback !== undefined) await assertCallbackAllowed(app, input.callback);
  const accountId = input.svc_access_token ? await resolveAccountFromAccessToken(app, input.svc_access_token) : null;

  const prisma = await db();
  const wallet = await prisma.wallet.findUnique({ where: { organizationId: app.organizationId } });
  const cost = sessionCostCents(workflow.features);
  if (!wallet || wallet.balanceCents < cost) {
    throw new ApiError("insufficient_funds", {
      message: `Wallet balance too low for this workflow's checks (${(cost / 100).toFixed(2)} USD needed)`,
    });
  }

  const settings = workflow.settings as WorkflowSettings;
  const snapshot: WorkflowSnapshot = { id: workflow.id, name: workflow.name, features: workflow.features, settings };
  const ttl = input.ttl_seconds ?? settings.session?.ttl_seconds ?? 24 * 3600;
  const token = randomToken("st_", 32);
  const createdAt = now();
  const session = await prisma.session.create({
    data: {
      appId: app.id,
      workflowId: workflow.id,
      workflowSnapshot: snapshot,
      features: workflow.features,
      vendorData: input.vendor_data ?? null,
      redirectUrl: input.redirect_url ?? null,
      callbackUrl: input.callback ?? null,
      metadata: (input.metadata ?? {}) as object,
      sessionTokenHash: hashSecret(token),
      accountId,
      expiresAt: new Date(createdAt.getTime() + ttl * 1000),
      createdAt,
    },
  });
  return {
    session_id: session.id,
    status: session.status,
    url: hostedUrl(session.id, token),
    session_token: token,
    features: session.features,
    redirect_url: session.redirectUrl,
    expires_at: session.expiresAt.toISOString(),
  };
}
