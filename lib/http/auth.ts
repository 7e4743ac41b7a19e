import { previousWhileLive } from "@/lib/crypto/rolled-secret";
import type { App } from "@/generated/prisma/client";
import { env } from "@/lib/config/env";
import { db } from "@/lib/db/client";
import { constantTimeEqual, hashSecret } from "@/lib/crypto/secrets";
import { TtlCache } from "@/lib/cache/ttl-cache";
import { now } from "@/lib/clock";
import { ApiError } from "./api-error";
import type { HeaderReader } from "./core/request";
import { processSlot } from "@/lib/process-slots";

/**
 * Valid credentials are remembered for CREDENTIAL_CACHE_MS (10 s) per
 * process, so the hot path does not query the database on every request. A
 * revoked key or a deactivated app therefore stops working within that time
 * everywhere (at once in the process that made the change: forgetCredentials).
 * A credential with an expiry (a rolled API key, a rotated-away client
 * secret in its overlap window) is never trusted from the cache past it.
 */
type Caller = { app: App; actor: string };
/** A remembered credential, and when it stops working (a rolled key, a previous client secret), if ever. */
type Remembered = { caller: Caller; until: number | null };
const credentialCacheSlot = processSlot<TtlCache<Remembered>>("credentialCache");
const credentialCache = () => (credentialCacheSlot.value ??= new TtlCache(env().CREDENTIAL_CACHE_MS));

/** Drops every remembered credential (after a revocation or an app change). */
export function forgetCredentials() {
  credentialCache().clear();
}

/** The remembered caller of `key`, unless its credential has expired meanwhile. */
function remembered(key: string, at: Date): Caller | undefined {
  const entry = credentialCache().get(key);
  if (!entry) return undefined;
  if (entry.until !== null && entry.until <= at.getTime()) {
    credentialCache().delete(key);
    return undefined;
  }
  return entry.caller;
}

/** A rolled API key works until its `expiresAt`; revoked or expired, it is refused the same way. */
export function apiKeyIsUsable(key: { revokedAt: Date | null; expiresAt: Date | null }, at: Date): boolean {
  return !key.revokedAt && (!key.expiresAt || previousWhileLive(key, key.expiresAt, at) !== null);
}

/**
 * The OIDC client secret check: the current secret, or the one a rotation
 * replaced while its overlap window lasts (`previousClientSecretExpiresAt`).
 * Returns when the matched secret stops working (null: never), or false.
 */
export function matchClientSecret(
  app: Pick<App, "clientSecretHash" | "previousClientSecretHash" | "previousClientSecretExpiresAt">,
  secretHash: string,
  at: Date,
): { until: number | null } | false {
  if (constantTimeEqual(app.clientSecretHash, secretHash)) return { until: null };
  const previous = previousWhileLive(app.previousClientSecretHash, app.previousClientSecretExpiresAt, at);
  if (previous && constantTimeEqual(previous, secretHash)) return { until: app.previousClientSecretExpiresAt!.getTime() };
  return false;
}

/** Spec 5: `X-API-Key: <key>` or `Authorization: Bearer <key>`. */
export function readApiKey(req: { headers: HeaderReader }): string | undefined {
  const header = req.headers.get("x-api-key")?.trim();
  if (header) return header;
  const auth = req.headers.get("authorization")?.trim();
  const match = auth?.match(/^Bearer\s+(\S+)$/i);
  return match?.[1];
}

/** Resolves the app of a verification API key (and who used it), or 401 `invalid_api_key`. */
export async function authenticateApiKey(req: { headers: HeaderReader }): Promise<Caller> {
  const key = readApiKey(req);
  if (!key) throw new ApiError("invalid_api_key", { message: "Missing API key: send X-API-Key or Authorization: Bearer" });
  const hash = hashSecret(key);
  const at = now();
  const cached = remembered(`key:${hash}`, at);
  if (cached) return cached;
  const prisma = await db();
  const record = await prisma.apiKey.findUnique({ where: { keyHash: hash }, include: { app: true } });
  if (!record || !apiKeyIsUsable(record, at) || !record.app.isActive) {
    throw new ApiError("invalid_api_key", { message: "Invalid or revoked API key" });
  }
  if (!record.lastUsedAt || at.getTime() - record.lastUsedAt.getTime() > 60_000) {
    void prisma.apiKey.update({ where: { id: record.id }, data: { lastUsedAt: at } }).catch(() => {});
  }
  const caller = { app: record.app, actor: `api_key:${record.prefix}` };
  credentialCache().set(`key:${hash}`, { caller, until: record.expiresAt?.getTime() ?? null });
  return caller;
}

/** Spec 5: `X-Client-Id` + `X-Client-Secret`, scoped to the app's organization. */
export async function authenticateClient(req: { headers: HeaderReader }): Promise<Caller> {
  const clientId = req.headers.get("x-client-id")?.trim();
  const secret = req.headers.get("x-client-secret")?.trim();
  if (!clientId || !secret) {
    throw new ApiError("invalid_client", { message: "Send X-Client-Id and X-Client-Secret" });
  }
  return authenticateClientCredentials(clientId, secret);
}

/** A client id and secret however they came (headers, HTTP Basic, a form body): 401 invalid_client unless right and active. */
export async function authenticateClientCredentials(clientId: string, secret: string): Promise<Caller> {
  const secretHash = hashSecret(secret);
  const cacheKey = `client:${clientId}:${secretHash}`;
  const at = now();
  const cached = remembered(cacheKey, at);
  if (cached) return cached;
  const prisma = await db();
  const app = await prisma.app.findUnique({ where: { clientId } });
  const match = app ? matchClientSecret(app, secretHash, at) : false;
  if (!app || !match || !app.isActive) {
    throw new ApiError("invalid_client", { message: "Wrong client id or secret, or inactive app" });
  }
  const caller = { app, actor: `client:${app.clientId}` };
  credentialCache().set(cacheKey, { caller, until: match.until });
  return caller;
}
