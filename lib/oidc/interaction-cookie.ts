import { createHmac } from "node:crypto";
import { derivedKey } from "@/lib/crypto/encryption-key";
import { constantTimeEqual, hashSecret, randomToken } from "@/lib/crypto/secrets";
import { parseCookieHeader } from "@/lib/portal/session-cookie";
import { issuer } from "./config";

/**
 * The sign-in request is bound to the browser that started it: a random
 * cookie value, of which the database keeps only the SHA-256. The cookie is
 * HttpOnly, SameSite=Lax (a cross-site frame or form post never carries it)
 * and scoped to the interaction's own path, so several sign-ins in one
 * browser do not collide. Forms carry a CSRF token: an HMAC of the cookie
 * value under a key derived from ENCRYPTION_KEY, so it needs no storage and
 * cannot be made without the cookie.
 */
export const INTERACTION_COOKIE = "svc_oidc_interaction";

export const interactionPath = (id: string) => `/oidc/interaction/${encodeURIComponent(id)}`;

export function newBrowserSecret(): { value: string; hash: string } {
  const value = randomToken("", 32);
  return { value, hash: hashSecret(value) };
}

export function csrfToken(cookieValue: string): string {
  return createHmac("sha256", derivedKey("svc oidc interaction csrf")).update(cookieValue).digest("base64url");
}

export function csrfValid(cookieValue: string, token: string | null | undefined): boolean {
  return typeof token === "string" && constantTimeEqual(csrfToken(cookieValue), token);
}

function secureCookies(): boolean {
  return issuer().startsWith("https:");
}

export function setInteractionCookie(id: string, value: string, maxAgeSeconds: number): string {
  return [
    `${INTERACTION_COOKIE}=${value}`,
    `Path=${interactionPath(id)}`,
    `Max-Age=${maxAgeSeconds}`,
    "HttpOnly",
    "SameSite=Lax",
    ...(secureCookies() ? ["Secure"] : []),
  ].join("; ");
}

export function clearInteractionCookie(id: string): string {
  return [`${INTERACTION_COOKIE}=`, `Path=${interactionPath(id)}`, "Max-Age=0", "HttpOnly", "SameSite=Lax", ...(secureCookies() ? ["Secure"] : [])].join("; ");
}

/** The interaction cookie from a raw Cookie header (route handlers speak plain Request). */
export function readInteractionCookie(header: string | null): string | undefined {
  return parseCookieHeader(header)[INTERACTION_COOKIE] || undefined;
}
