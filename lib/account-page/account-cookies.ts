import { createHmac } from "node:crypto";
import { now } from "@/lib/clock";
import { openJson, sealJson } from "@/lib/crypto/encryption";
import { derivedKey, matchesUnderAnyDerivedKey } from "@/lib/crypto/encryption-key";
import { issuer } from "@/lib/oidc/config";
import { parseCookieHeader } from "@/lib/http/cookies";

/**
 * The account page's two cookies, both sealed with ENCRYPTION_KEY (AES-256-GCM:
 * nobody can read or forge them), HttpOnly, SameSite=Lax, scoped to
 * /account, Secure when the issuer is https:
 * - `svc_account`: who is signed in, for 30 minutes (a page that can delete
 *   the account asks again after that); sent site-wide, read by /account and
 *   the activation page (/activate/...);
 * - `svc_account_sign_in`: the PKCE verifier and state of a sign-in under
 *   way, for the sign-in request's 30 minutes.
 * The page's forms carry a CSRF token: an HMAC of the account cookie.
 */
export const ACCOUNT_COOKIE = "svc_account";
export const SIGN_IN_COOKIE = "svc_account_sign_in";
export const ACCOUNT_SESSION_SECONDS = 30 * 60;
const SIGN_IN_SECONDS = 30 * 60;

type AccountSession = { account_id: string; expires_at: number };
type SignInState = { verifier: string; state: string; return_to?: string; expires_at: number };

/** The signed-in cookie is sent site-wide (the activation page reads it too); the sign-in state only to /account. */
const pathOf = (name: string) => (name === ACCOUNT_COOKIE ? "/" : "/account");

function cookie(name: string, value: string, maxAge: number): string {
  return [`${name}=${value}`, `Path=${pathOf(name)}`, `Max-Age=${maxAge}`, "HttpOnly", "SameSite=Lax", ...(issuer().startsWith("https:") ? ["Secure"] : [])].join("; ");
}

const seal = (value: unknown) => Buffer.from(sealJson(value)).toString("base64url");

function open<T extends { expires_at: number }>(value: string | undefined): T | null {
  if (!value) return null;
  try {
    const opened = openJson<T>(Buffer.from(value, "base64url"));
    return opened.expires_at > now().getTime() ? opened : null;
  } catch {
    return null;
  }
}

export function readCookie(header: string | null, name: string): string | undefined {
  return parseCookieHeader(header)[name] || undefined;
}

export function accountSessionCookie(accountId: string): string {
  return cookie(ACCOUNT_COOKIE, seal({ account_id: accountId, expires_at: now().getTime() + ACCOUNT_SESSION_SECONDS * 1000 }), ACCOUNT_SESSION_SECONDS);
}

/** The signed-in account id, or null (no cookie, forged, expired). */
export function signedInAccount(value: string | undefined): string | null {
  return open<AccountSession>(value)?.account_id ?? null;
}

export function signInStateCookie(verifier: string, state: string, returnTo?: string): string {
  return cookie(SIGN_IN_COOKIE, seal({ verifier, state, return_to: returnTo, expires_at: now().getTime() + SIGN_IN_SECONDS * 1000 }), SIGN_IN_SECONDS);
}

export function readSignInState(value: string | undefined): SignInState | null {
  return open<SignInState>(value);
}

export const clearCookie = (name: string) => cookie(name, "", 0);

/** Signing out: the signed-in cookie, also as set at /account before it was site-wide (2026-11). */
export const clearAccountSession = (): string[] => [clearCookie(ACCOUNT_COOKIE), `${ACCOUNT_COOKIE}=; Path=/account; Max-Age=0; HttpOnly; SameSite=Lax`];

export function accountCsrf(accountCookie: string, key = derivedKey("svc account page csrf")): string {
  return createHmac("sha256", key).update(accountCookie).digest("base64url");
}

/** A form shown before an ENCRYPTION_KEY change still posts while the old key is in ENCRYPTION_KEY_PREVIOUS. */
export function accountCsrfValid(accountCookie: string | undefined, token: string | undefined): boolean {
  if (!accountCookie || !token) return false;
  return matchesUnderAnyDerivedKey("svc account page csrf", (key) => accountCsrf(accountCookie, key), token);
}
