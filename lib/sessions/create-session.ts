import { randomUUID } from "node:crypto";
import type { App } from "@/generated/prisma/client";
import { env } from "@/lib/config/env";
import { now } from "@/lib/clock";
import { db, sqlPool } from "@/lib/db/client";
import { hashSecret, randomToken } from "@/lib/crypto/secrets";
import { checkPrices } from "@/lib/billing/prices";
import { ApiError } from "@/lib/http/api-error";
import { resolveAccountFromAccessToken } from "@/lib/accounts/resolve-access-token";
import { SESSION_TTL } from "@/lib/workflows/settings";
import { isLocalHttpUrl } from "@/lib/tenancy/schemas";
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

function hostedUrl(sessionId: string, token: string): string {
  // The token rides in the fragment: browsers never send it to servers or in Referer headers.
  return `${env().PUBLIC_BASE_URL}/verify/${sessionId}#token=${encodeURIComponent(token)}`;
}

type InsertOutcome = {
  found: boolean;
  is_active: boolean | null;
  cost: number | null;
  balance_cents: number | null;
  features: string[] | null;
  expires_at: Date | null;
};

/**
 * One statement, the API's hot path: inserts the session when the workflow
 * belongs to the app, is active, and the wallet covers its checks, taking
 * the workflow snapshot and default TTL in the same read. When nothing was
 * inserted, the returned row says why.
 */
async function insertSession(app: App, input: CreateSessionInput, id: string, tokenHash: string, accountId: string | null) {
  const pool = await sqlPool();
  const { rows } = await pool.query<InsertOutcome>(
    `WITH w AS (
       SELECT w.id, w.name, w.features, w.settings, w.is_active,
              COALESCE(wal.balance_cents, 0) AS balance_cents,
              (SELECT COALESCE(sum(($1::jsonb ->> f)::int), 0)::int FROM unnest(w.features) AS f) AS cost
         FROM workflows w LEFT JOIN wallets wal ON wal.organization_id = $2
        WHERE w.id = $3 AND w.app_id = $4 AND w.deleted_at IS NULL
     ), ins AS (
       INSERT INTO sessions (id, app_id, workflow_id, workflow_snapshot, features, status, vendor_data, redirect_url,
                             callback_url, metadata, session_token_hash, account_id, expires_at, created_at, updated_at)
       SELECT $5, $4, w.id,
              jsonb_build_object('id', w.id, 'name', w.name, 'features', to_jsonb(w.features), 'settings', w.settings),
              w.features, 'NOT_STARTED', $6, $7, $8, $9::jsonb, $10, $11,
              $12::timestamptz
                + make_interval(secs => COALESCE($13::int, (w.settings -> 'session' ->> 'ttl_seconds')::int, $14::int)),
              $12::timestamptz, $12::timestamptz
         FROM w WHERE w.is_active AND w.balance_cents >= w.cost
       RETURNING expires_at, features
     )
     SELECT (w.id IS NOT NULL) AS found, w.is_active, w.cost, w.balance_cents, ins.features, ins.expires_at
       FROM (SELECT 1) AS one LEFT JOIN w ON true LEFT JOIN ins ON true`,
    [
      JSON.stringify(checkPrices()),
      app.organizationId,
      input.workflow_id,
      app.id,
      id,
      input.vendor_data ?? null,
      input.redirect_url ?? null,
      input.callback ?? null,
      JSON.stringify(input.metadata ?? {}),
      tokenHash,
      accountId,
      now().toISOString(),
      input.ttl_seconds ?? null,
      SESSION_TTL.default,
    ],
  );
  const row = rows[0];
  return row!;
}

/** POST /api/v2/session. */
export async function createSession(app: App, input: CreateSessionInput) {
  if (input.redirect_url && app.environment === "production" && new URL(input.redirect_url).protocol !== "https:") {
    throw new ApiError("invalid_request", {
      message: "redirect_url must use https for production apps",
      data: { errors: { redirect_url: ["Must use https for production apps"] } },
    });
  }
  if (input.callback !== undefined) await assertCallbackAllowed(app, input.callback);
  const accountId = input.svc_access_token ? await resolveAccountFromAccessToken(app, input.svc_access_token) : null;

  const token = randomToken("st_", 32);
  const id = randomUUID();
  const outcome = await insertSession(app, input, id, hashSecret(token), accountId);
  if (!outcome.found) throw new ApiError("workflow_not_found");
  if (!outcome.is_active) {
    throw new ApiError("workflow_not_found", { message: "Workflow is not active: activate it to create sessions" });
  }
  if (!outcome.expires_at || !outcome.features) {
    throw new ApiError("insufficient_funds", {
      message: `Wallet balance too low for this workflow's checks (${((outcome.cost ?? 0) / 100).toFixed(2)} USD needed)`,
    });
  }
  return {
    session_id: id,
    status: "NOT_STARTED",
    url: hostedUrl(id, token),
    session_token: token,
    features: outcome.features,
    redirect_url: input.redirect_url ?? null,
    expires_at: outcome.expires_at.toISOString(),
  };
}
