import { env } from "@/lib/config/env";
import { KNOWN_SCOPES } from "@/lib/tenancy/schemas";
import { CREDENTIAL_TTL_SECONDS } from "./predicate-credential-format";

/**
 * The provider's fixed rules (spec 3.3, 5 rule 7, 8). Lifetimes in seconds.
 */
export const OIDC_TTL = {
  /** Authorization code: single use, about 2 minutes. */
  authorizationCode: 120,
  /** Access token: about 900 seconds. */
  accessToken: 900,
  /** The login: refresh tokens of one sign-in end 24 hours after it, however often they rotate. */
  login: 24 * 60 * 60,
  /** ID token `exp`. */
  idToken: 3600,
  /** The sign-in request (login and consent pages). */
  interaction: 30 * 60,
} as const;

/**
 * A retired signing key stays in the JWKS this long: every ID token and
 * every predicate credential (24 hours) it signed has expired (plus cache slack).
 */
export const RETIRED_KEY_PUBLISH_SECONDS = Math.max(OIDC_TTL.idToken, CREDENTIAL_TTL_SECONDS) + 300;

export const SUPPORTED_SCOPES = KNOWN_SCOPES;
export type Scope = (typeof SUPPORTED_SCOPES)[number];

/** The issuer: PUBLIC_BASE_URL, never the request's own URL. */
export function issuer(): string {
  return env().PUBLIC_BASE_URL;
}

export function endpoints() {
  const base = issuer();
  return {
    authorization: `${base}/api/auth/oidc/authorize`,
    token: `${base}/api/auth/oidc/token`,
    userinfo: `${base}/api/auth/oidc/userinfo`,
    jwks: `${base}/api/auth/oidc/jwks.json`,
    endSession: `${base}/api/auth/oidc/logout`,
    licenses: `${base}/api/auth/oidc/licenses`,
    verifications: `${base}/api/auth/oidc/verifications`,
    credential: `${base}/api/auth/oidc/credential`,
    discovery: `${base}/.well-known/openid-configuration`,
  };
}

/** Space-separated scope string to a de-duplicated list. */
export function splitScope(scope: string | null | undefined): string[] {
  return [...new Set((scope ?? "").split(" ").filter(Boolean))];
}

export function hasScope(scope: string, wanted: string): boolean {
  return splitScope(scope).includes(wanted);
}
