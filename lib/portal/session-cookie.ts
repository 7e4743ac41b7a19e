import { decode } from "next-auth/jwt";
import { env } from "@/lib/config/env";
import { derivedKey } from "@/lib/crypto/encryption-key";

/**
 * The developer portal's sign-in session is next-auth's JWT cookie
 * (lib/portal/auth-options.ts). These helpers are shared by next-auth's
 * configuration, the pages (through next/headers) and the HTTP core's
 * `developer` authentication (from the Cookie header), so all three agree on
 * the secret and the cookie's name.
 */
export const PORTAL_AUTH_BASE_PATH = "/api/portal/auth";
export const PORTAL_SESSION_MAX_AGE_SECONDS = 8 * 60 * 60;

/** next-auth's JWT secret, derived from ENCRYPTION_KEY (no extra configuration). */
export function portalAuthSecret(): string {
  return derivedKey("portal-session-jwt").toString("hex");
}

/** next-auth marks its cookies `__Secure-` (and Secure) when the public origin is HTTPS. */
export function portalCookiesSecure(): boolean {
  return env().PUBLIC_BASE_URL.startsWith("https://");
}

export function portalSessionCookieName(): string {
  return `${portalCookiesSecure() ? "__Secure-" : ""}next-auth.session-token`;
}

/** The session cookie's value, joining next-auth's chunks (`name.0`, `name.1`...) when it split a large one. */
function sessionTokenOf(cookies: Record<string, string | undefined>): string | undefined {
  const name = portalSessionCookieName();
  if (cookies[name]) return cookies[name];
  const chunks: string[] = [];
  for (let i = 0; cookies[`${name}.${i}`] !== undefined; i++) chunks.push(cookies[`${name}.${i}`]!);
  return chunks.length ? chunks.join("") : undefined;
}

/**
 * Our claim in next-auth's JWT: the id of the sign-in's `developer_sessions`
 * row (lib/portal/developer-sessions.ts), kept when next-auth re-issues the
 * token. A cookie without it (issued before sessions had rows) is refused.
 */
export const SESSION_ID_CLAIM = "sid";

export type PortalSession = { developerId: string; sessionId: string };

/** The developer id and session id a JWT claims, or null when it lacks either. */
function portalSessionOfToken(payload: Record<string, unknown> | null | undefined): PortalSession | null {
  const sessionId = payload?.[SESSION_ID_CLAIM];
  if (typeof payload?.sub !== "string" || typeof sessionId !== "string") return null;
  return { developerId: payload.sub, sessionId };
}

/**
 * The developer id and session id the cookies claim, or null (no cookie,
 * tampered, expired, no session id). Whether that session is still live is
 * the database's answer (lib/portal/access.ts).
 */
export async function portalSessionFromCookies(cookies: Record<string, string | undefined>): Promise<PortalSession | null> {
  const token = sessionTokenOf(cookies);
  if (!token) return null;
  try {
    return portalSessionOfToken(await decode({ token, secret: portalAuthSecret() }));
  } catch {
    return null;
  }
}
