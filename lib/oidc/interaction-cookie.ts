import { createHmac } from "node:crypto";
import { derivedKey, derivedKeys, matchesUnderAnyDerivedKey } from "@/lib/crypto/encryption-key";
import { openBytes, sealBytes } from "@/lib/crypto/encryption";
import { hashSecret, randomToken } from "@/lib/crypto/secrets";
import { parseCookieHeader } from "@/lib/http/cookies";
import { issuer } from "./config";

/**
 * The sign-in request lives in the browser until the person does something
 * with it: authorize writes no database row (an anonymous GET must not cost
 * storage), it seals the request (AES-256-GCM under a key derived from
 * ENCRYPTION_KEY) into the interaction cookie. The first form post that
 * needs the database (an email entered, a cancel) stores it
 * (lib/oidc/interaction.ts). The sealed request carries a random browser
 * secret, of which the stored row keeps only the SHA-256.
 *
 * The cookie is HttpOnly, SameSite=Lax (a cross-site frame or form post
 * never carries it) and scoped to the interaction's own path, so several
 * sign-ins in one browser do not collide. A request too long for one cookie
 * (long `state` or `nonce`) is split over numbered cookies
 * (`svc_oidc_interaction.1`, ...), as next-auth chunks its session cookie.
 * Forms carry a CSRF token: an HMAC of the browser secret under another
 * derived key, so it needs no storage and cannot be made without the cookie.
 */
export const INTERACTION_COOKIE = "svc_oidc_interaction";
/** Characters of sealed value per cookie (browsers keep about 4096 bytes per cookie, name and value). */
const CHUNK = 3800;
/** authorize's parameters are at most 2048 characters each: three cookies hold the longest request. */
export const MAX_COOKIE_CHUNKS = 3;

export const interactionPath = (id: string) => `/oidc/interaction/${encodeURIComponent(id)}`;

/** What authorize checked, sealed in the cookie until the request is stored. */
export type SealedInteraction = {
  id: string;
  /** The browser secret (the stored row keeps its SHA-256). */
  secret: string;
  appId: string;
  redirectUri: string;
  scope: string;
  state: string;
  nonce: string | null;
  codeChallenge: string | null;
  loginHint: string | null;
  /** Set when the request reused the browser's sign-in session (it starts at consent): who, and when they signed in (ms). */
  accountId?: string;
  authTime?: number;
  /** Expiry, ms since the epoch. */
  exp: number;
};

const SEAL_PURPOSE = "svc oidc interaction seal";
const CSRF_PURPOSE = "svc oidc interaction csrf";

export function newBrowserSecret(): { value: string; hash: string } {
  const value = randomToken("", 32);
  return { value, hash: hashSecret(value) };
}

export function sealInteraction(request: SealedInteraction): string {
  return Buffer.from(sealBytes(Buffer.from(JSON.stringify(request), "utf8"), derivedKey(SEAL_PURPOSE))).toString("base64url");
}

/**
 * The sealed request, or null when the value was not sealed by this
 * installation (or is damaged). A cookie sealed before an ENCRYPTION_KEY
 * change still opens while the old key is in ENCRYPTION_KEY_PREVIOUS.
 */
export function openInteraction(value: string | undefined): SealedInteraction | null {
  if (!value) return null;
  const sealed = Buffer.from(value, "base64url");
  for (const key of derivedKeys(SEAL_PURPOSE)) {
    try {
      const parsed = JSON.parse(openBytes(sealed, key).toString("utf8")) as SealedInteraction;
      return typeof parsed.id === "string" && typeof parsed.secret === "string" ? parsed : null;
    } catch {
      // not this key
    }
  }
  return null;
}

export function csrfToken(browserSecret: string, key = derivedKey(CSRF_PURPOSE)): string {
  return createHmac("sha256", key).update(browserSecret).digest("base64url");
}

export function csrfValid(browserSecret: string, token: string | null | undefined): boolean {
  return typeof token === "string" && matchesUnderAnyDerivedKey(CSRF_PURPOSE, (key) => csrfToken(browserSecret, key), token);
}

function secureCookies(): boolean {
  return issuer().startsWith("https:");
}

const chunkName = (i: number) => (i === 0 ? INTERACTION_COOKIE : `${INTERACTION_COOKIE}.${i}`);

function cookieHeader(name: string, value: string, id: string, maxAgeSeconds: number): string {
  return [`${name}=${value}`, `Path=${interactionPath(id)}`, `Max-Age=${maxAgeSeconds}`, "HttpOnly", "SameSite=Lax", ...(secureCookies() ? ["Secure"] : [])].join("; ");
}

/** The Set-Cookie headers of the interaction cookie (one per chunk), or null when the value needs more than MAX_COOKIE_CHUNKS. */
export function setInteractionCookie(id: string, value: string, maxAgeSeconds: number): string[] | null {
  const chunks: string[] = [];
  for (let at = 0; at < value.length; at += CHUNK) chunks.push(value.slice(at, at + CHUNK));
  if (chunks.length > MAX_COOKIE_CHUNKS) return null;
  return chunks.map((chunk, i) => cookieHeader(chunkName(i), chunk, id, maxAgeSeconds));
}

export function clearInteractionCookie(id: string): string[] {
  return Array.from({ length: MAX_COOKIE_CHUNKS }, (_, i) => cookieHeader(chunkName(i), "", id, 0));
}

/** The interaction cookie (its chunks joined) from a raw Cookie header. */
export function readInteractionCookie(header: string | null): string | undefined {
  const cookies = parseCookieHeader(header);
  let value = "";
  for (let i = 0; i < MAX_COOKIE_CHUNKS && cookies[chunkName(i)]; i++) value += cookies[chunkName(i)];
  return value || undefined;
}
