import { randomUUID } from "node:crypto";
import type { App } from "@/generated/prisma/client";
import { env } from "@/lib/config/env";
import { now } from "@/lib/clock";
import type { Insertable } from "kysely";
import type { DB } from "@/generated/kysely/database";
import { db, type Tx } from "@/lib/db/client";
import { prepareQuery, runPrepared, runPreparedInTransaction, typedSql } from "@/lib/db/typed-sql";
import { hashSecret, randomToken } from "@/lib/crypto/secrets";
import { assertWalletCoversSession } from "@/lib/billing/session-cover";
import { ApiError } from "@/lib/http/api-error";
import { returnUrlProblem } from "@/lib/tenancy/schemas";
import { resolveAccountFromAccessToken } from "@/lib/oidc/resolve-access-token";
import { assertWorkflowStartsSessions, sessionTtlSeconds } from "@/lib/workflows/session-workflow";
import { isLocalHttpUrl } from "@/lib/tenancy/schemas";
import { reusableProofsFor } from "@/lib/identity/reuse";
import type { WorkflowSettings } from "@/lib/workflows/settings";
import { storedFeature, type Feature } from "@/lib/contract-vocabulary";
import type { CreateSessionInput } from "./schemas";

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
  const secure = url.protocol === "https:" || (app.environment === "test" && isLocalHttpUrl(url));
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

export function hostedUrl(sessionId: string, token: string): string {
  // The token rides in the fragment: browsers never send it to servers or in Referer headers.
  return `${env().PUBLIC_BASE_URL}/verify/${sessionId}#token=${encodeURIComponent(token)}`;
}

/** The workflow and the organization's balance: one read, on the hot path. */
const workflowAndBalance = prepareQuery("session_create_workflow", (v: { workflowId: string; organizationId: string }) =>
  typedSql
    .selectFrom("workflows as w")
    .select((eb) => [
      "w.id",
      "w.app_id as appId",
      "w.name",
      "w.features",
      "w.settings",
      "w.is_active as isActive",
      "w.deleted_at as deletedAt",
      "w.purpose",
      eb.selectFrom("wallets").select("balance_cents").where("organization_id", "=", v.organizationId).as("balanceCents"),
    ])
    .where("w.id", "=", v.workflowId),
);

const insertSession = prepareQuery("session_create_insert", (v: Required<Omit<Insertable<DB["sessions"]>, "started_at" | "completed_at" | "decided_at">>) =>
  typedSql.insertInto("sessions").values({
    id: v.id,
    app_id: v.app_id,
    workflow_id: v.workflow_id,
    workflow_snapshot: v.workflow_snapshot,
    features: v.features,
    status: v.status,
    vendor_data: v.vendor_data,
    redirect_url: v.redirect_url,
    callback_url: v.callback_url,
    language: v.language,
    metadata: v.metadata,
    session_token_hash: v.session_token_hash,
    account_id: v.account_id,
    expires_at: v.expires_at,
    created_at: v.created_at,
    updated_at: v.updated_at,
  }),
);

/**
 * POST /api/v2/session. Two statements on the hot path (a read of the
 * workflow with the wallet's balance, then the insert); the rules between
 * them are named functions: assertWorkflowStartsSessions (404
 * workflow_not_found, 422 for a check the server cannot run),
 * assertWalletCoversSession (402 insufficient_funds) and sessionTtlSeconds.
 * The workflow's features and settings are frozen into the session; a
 * session bound to an account reuses the account's valid proofs, written
 * in the insert's transaction (all or nothing).
 * `commit`, when given, runs in the insert's transaction with the answer
 * (the Idempotency-Key's stored answer: a retry after a crash replays this
 * session instead of creating a second one).
 */
export async function createSession(app: App, input: CreateSessionInput, commit?: (tx: Tx, created: CreatedSession) => Promise<void>) {
  const returnProblem = input.redirect_url ? returnUrlProblem(app.environment as "test" | "production", new URL(input.redirect_url)) : null;
  if (returnProblem) {
    throw new ApiError("invalid_request", { message: `redirect_url: ${returnProblem}`, data: { errors: { redirect_url: [returnProblem] } } });
  }
  if (input.callback !== undefined) await assertCallbackAllowed(app, input.callback);
  const accountId = input.svc_access_token ? await resolveAccountFromAccessToken(app, input.svc_access_token) : null;

  const [found] = await runPrepared(workflowAndBalance, { workflowId: input.workflow_id, organizationId: app.organizationId });
  const workflow = await assertWorkflowStartsSessions(found, app.id);
  assertWalletCoversSession(workflow.balanceCents ?? 0, workflow.features);
  const at = now();
  const expiresAt = new Date(at.getTime() + sessionTtlSeconds(input.ttl_seconds, workflow.settings) * 1000);

  const token = randomToken("st_", 32);
  const id = randomUUID();
  const snapshot = { id: workflow.id, name: workflow.name, features: workflow.features, settings: workflow.settings };
  const row = {
    id,
    app_id: app.id,
    workflow_id: workflow.id,
    workflow_snapshot: JSON.stringify(snapshot),
    features: workflow.features,
    status: "NOT_STARTED",
    vendor_data: input.vendor_data ?? null,
    redirect_url: input.redirect_url ?? null,
    callback_url: input.callback ?? null,
    language: input.language ?? null,
    metadata: JSON.stringify(input.metadata ?? {}),
    session_token_hash: hashSecret(token),
    account_id: accountId,
    expires_at: expiresAt,
    created_at: at,
    updated_at: at,
  };
  const created = {
    session_id: id,
    status: "NOT_STARTED" as const,
    url: hostedUrl(id, token),
    session_token: token,
    features: workflow.features.map(storedFeature),
    redirect_url: input.redirect_url ?? null,
    expires_at: expiresAt.toISOString(),
  };
  // A bound session skips what the account has already proven (lib/identity/reuse.ts): those
  // checks are written with the session, in its transaction, before the answer is stored.
  const reused = accountId ? await reusableProofsFor({ id, accountId, features: workflow.features, settings: workflow.settings as WorkflowSettings }, at) : null;
  if (commit || reused) {
    await (await db()).$transaction(async (tx) => {
      await runPreparedInTransaction(tx, insertSession, row);
      await reused?.write(tx);
      await commit?.(tx, created);
    });
  } else {
    await runPrepared(insertSession, row);
  }
  return created;
}

export type CreatedSession = {
  session_id: string;
  status: "NOT_STARTED";
  url: string;
  session_token: string;
  features: Feature[];
  redirect_url: string | null;
  expires_at: string;
};
