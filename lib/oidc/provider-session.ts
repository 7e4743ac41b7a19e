import { now } from "@/lib/clock";
import { hashSecret, randomToken } from "@/lib/crypto/secrets";
import { db } from "@/lib/db/client";
import { parseCookieHeader } from "@/lib/http/cookies";
import { issuer, OIDC_TTL } from "./config";

/**
 * The provider's sign-in session (single sign-on): once a person proved
 * their email (one-time code or face) in a browser, later authorization
 * requests from that browser, for any app, reuse the sign-in instead of
 * asking again, as Auth0 and Okta do. It is what `prompt=none`, `max_age`
 * and `id_token_hint` are about (OIDC Core 3.1.2.1).
 *
 * - The cookie holds a random secret; the database keeps its SHA-256 (a
 *   dump of the database cannot sign anyone in) and the account and time of
 *   the sign-in. HttpOnly, SameSite=Lax (sent on the app's top-level
 *   redirect to authorize, never on a cross-site frame or form post), Secure
 *   on an https issuer, and scoped to the provider's own paths.
 * - It ends with the login it came from: 24 hours after the sign-in
 *   (OIDC_TTL.login, when that login's refresh tokens end too), at logout
 *   (RP-Initiated Logout ends it), or when the browser signs in again.
 */
export const PROVIDER_SESSION_COOKIE = "svc_oidc_session";
const COOKIE_PATH = "/api/auth/oidc";

export type ProviderSession = { id: string; accountId: string; authTime: Date };

function cookieHeader(value: string, maxAgeSeconds: number): string {
  const secure = issuer().startsWith("https:") ? ["Secure"] : [];
  return [`${PROVIDER_SESSION_COOKIE}=${value}`, `Path=${COOKIE_PATH}`, `Max-Age=${maxAgeSeconds}`, "HttpOnly", "SameSite=Lax", ...secure].join("; ");
}

const secretOf = (cookieHeaderValue: string | null | undefined) => parseCookieHeader(cookieHeaderValue)[PROVIDER_SESSION_COOKIE] || undefined;

/** The browser's live sign-in session (from its raw Cookie header), or null. */
export async function currentProviderSession(cookieHeaderValue: string | null | undefined): Promise<ProviderSession | null> {
  const secret = secretOf(cookieHeaderValue);
  if (!secret || secret.length > 100) return null;
  const prisma = await db();
  const row = await prisma.oidcSession.findUnique({ where: { secretHash: hashSecret(secret) } });
  if (!row || row.expiresAt <= now()) return null;
  return { id: row.id, accountId: row.accountId, authTime: row.authTime };
}

/**
 * Starts the session of a sign-in that just happened (ending the browser's
 * previous one, if any). Returns its Set-Cookie header.
 */
export async function startProviderSession(accountId: string, authTime: Date, cookieHeaderValue: string | null | undefined): Promise<string> {
  const secret = randomToken("", 32);
  const expiresAt = new Date(authTime.getTime() + OIDC_TTL.login * 1000);
  const previous = secretOf(cookieHeaderValue);
  const prisma = await db();
  await prisma.$transaction([
    ...(previous ? [prisma.oidcSession.deleteMany({ where: { secretHash: hashSecret(previous) } })] : []),
    prisma.oidcSession.create({ data: { secretHash: hashSecret(secret), accountId, authTime, expiresAt } }),
  ]);
  return cookieHeader(secret, Math.max(0, Math.floor((expiresAt.getTime() - now().getTime()) / 1000)));
}

/** Ends the browser's session (logout). Returns the Set-Cookie header that clears the cookie. */
export async function endProviderSession(cookieHeaderValue: string | null | undefined): Promise<string> {
  const secret = secretOf(cookieHeaderValue);
  if (secret) {
    const prisma = await db();
    await prisma.oidcSession.deleteMany({ where: { secretHash: hashSecret(secret) } });
  }
  return cookieHeader("", 0);
}
