import { z } from "zod";
import { PREDICATE_CLAIMS, PREDICATE_VCT } from "@/lib/oidc/predicate-credential-format";
import { AuthorizeQuery, CredentialRequest, LogoutQuery, TokenRequest } from "@/lib/oidc/schemas";
import { operation, operations, type Operation } from "@/lib/http/operation";

/**
 * The OpenID Connect provider and the account reads (spec 2.9, 2.10, 4.5, 5):
 * lib/oidc/routes.ts. The OIDC routes read their parameters themselves
 * (lib/oidc/http.ts readParams: query string, or a JSON or form-encoded body)
 * and validate them with the request schemas of lib/oidc/schemas.ts, imported
 * here; the response schemas below describe what the handlers return.
 */
const TAG = "OpenID Connect";

// ------------------------------------------------------------ discovery, keys

const DiscoveryDocument = z
  .object({
    issuer: z.string().meta({ description: "PUBLIC_BASE_URL (never the request's own host)." }),
    authorization_endpoint: z.string(),
    token_endpoint: z.string(),
    userinfo_endpoint: z.string(),
    jwks_uri: z.string(),
    end_session_endpoint: z.string(),
    scopes_supported: z.array(z.string()),
    response_types_supported: z.array(z.string()),
    response_modes_supported: z.array(z.string()),
    grant_types_supported: z.array(z.string()),
    subject_types_supported: z.array(z.string()),
    id_token_signing_alg_values_supported: z.array(z.string()),
    token_endpoint_auth_methods_supported: z.array(z.string()),
    code_challenge_methods_supported: z.array(z.string()),
    claims_supported: z.array(z.string()),
    claim_types_supported: z.array(z.string()),
    claims_parameter_supported: z.boolean(),
    request_parameter_supported: z.boolean(),
    request_uri_parameter_supported: z.boolean(),
    authorization_response_iss_parameter_supported: z.boolean(),
    prompt_values_supported: z.array(z.string()),
    ui_locales_supported: z.array(z.string()),
    licenses_endpoint: z.string().meta({ description: "GET /api/auth/oidc/licenses (spec 4.5)." }),
    verifications_endpoint: z.string().meta({ description: "GET /api/auth/oidc/verifications (spec 4.5)." }),
    credential_endpoint: z.string().meta({ description: "POST /api/auth/oidc/credential: the `zkp` predicates as an SD-JWT VC." }),
  })
  .meta({ id: "OidcDiscoveryDocument", description: "OpenID Connect Discovery 1.0 provider metadata." });

const Jwk = z
  .object({
    kty: z.literal("RSA"),
    n: z.string(),
    e: z.string(),
    kid: z.string().meta({ description: "The key's RFC 7638 thumbprint." }),
    alg: z.literal("RS256"),
    use: z.literal("sig"),
  })
  .meta({ id: "OidcJwk", description: "A public RSA signing key." });

const JwkSet = z
  .object({ keys: z.array(Jwk) })
  .meta({
    id: "OidcJwkSet",
    description: "The active key, the next key (published before it signs), and retired keys until every token they signed has expired.",
  });

const discovery = (path: string, operationId: string, summary: string) =>
  ({
    method: "get",
    path,
    operationId,
    summary,
    description:
      "No authentication. Served at `/.well-known/openid-configuration` and, as an alias, `/api/.well-known/openid-configuration` (spec 4.5, 9).",
    tag: TAG,
    auth: "none",
    rateLimited: false,
    success: {
      status: 200,
      description: "The provider's metadata, top-level JSON.",
      body: "json",
      schema: DiscoveryDocument,
      headers: { "Cache-Control": "`public, max-age=300`." },
    },
    errors: [],
  }) as const;

// ------------------------------------------------------------ token

const TokenResponse = z
  .object({
    access_token: z.string().meta({ description: "Opaque (`at_...`), about 900 seconds." }),
    token_type: z.literal("Bearer"),
    expires_in: z.number().int().meta({ description: "Seconds." }),
    refresh_token: z.string().meta({ description: "Opaque (`rt_...`); refresh tokens of one sign-in end 24 hours after it." }),
    id_token: z.string().optional().meta({ description: "RS256 JWT; present when the (narrowed) scope includes `openid`." }),
    scope: z.string().meta({ description: "Space-separated." }),
  })
  .meta({ id: "OidcTokenResponse", description: "Spec 2.9: top-level token JSON." });

// ------------------------------------------------------------ account reads

const Userinfo = z
  .object({
    sub: z.string(),
    svc_id: z.string(),
    preferred_username: z.string(),
    email: z.string(),
    email_verified: z.boolean(),
    name: z.string().optional().meta({ description: "The name as verified on the account's valid identity document, else the name the person gave; left out when there is neither." }),
    id_verified: z.boolean(),
    age_over_18: z.boolean().optional().meta({ description: "With `zkp`, when a valid document answers it." }),
    age_over_21: z.boolean().optional().meta({ description: "With `zkp`, when a valid document answers it." }),
    licence_valid: z.boolean().optional().meta({ description: "With `zkp`, when the person has a licence on file." }),
  })
  .meta({ id: "OidcUserinfo", description: "Spec 2.10: top-level claims. Never raw identity data." });

const Licence = z
  .object({
    type: z.string(),
    number: z.string().nullable(),
    status: z.string().nullable(),
    expires_on: z.string().nullable(),
    issuer: z.string().nullable(),
  })
  .meta({ id: "OidcLicence" });

const Verifications = z
  .object({
    human_verified: z.boolean().meta({ description: "Falls back to `id_verified` when no explicit human check exists." }),
    id_verified: z.boolean(),
    licenses: z.array(
      z
        .object({
          license_type: z.string(),
          verified: z.boolean(),
          verified_from: z.string().nullable(),
          expire_at: z.string().nullable().meta({ description: "ISO 8601, the end of the expiry day." }),
        })
        .meta({ id: "OidcLicenceVerification" }),
    ),
  })
  .meta({ id: "OidcVerifications" });

const PredicateCredential = z
  .object({
    format: z.literal("dc+sd-jwt"),
    vct: z.literal(PREDICATE_VCT),
    credential: z.string().meta({ description: "The SD-JWT VC (RS256, verifiable with the JWKS)." }),
    claims: z.array(z.enum(PREDICATE_CLAIMS)).meta({ description: "The selectively disclosable predicates it holds." }),
    holder_bound: z.boolean(),
    expires_at: z.string().meta({ description: "ISO 8601; a day after the issue hour." }),
  })
  .meta({ id: "OidcPredicateCredential" });

// ------------------------------------------------------------ operations

const PAGE_ERRORS =
  " Errors are shown on an HTML page (`text/html`) with the catalogued status, never in the JSON envelope and never redirected to an unverified URI.";

export const oidcDiscovery = operation(discovery("/.well-known/openid-configuration", "oidcDiscovery", "Discovery document"));

export const oidcDiscoveryAlias = operation(discovery("/api/.well-known/openid-configuration", "oidcDiscoveryAlias", "Discovery document (alias under /api)"));

export const oidcJwks = operation({
    method: "get",
    path: "/api/auth/oidc/jwks.json",
    operationId: "oidcJwks",
    summary: "Public signing keys (JWK set)",
    description: "No authentication. The RS256 keys that verify ID tokens and predicate credentials.",
    tag: TAG,
    auth: "none",
    rateLimited: false,
    success: {
      status: 200,
      description: "The JWK set, top-level JSON.",
      body: "json",
      schema: JwkSet,
      headers: { "Cache-Control": "`public, max-age=60`." },
    },
    errors: [],
  });

export const oidcAuthorize = operation({
    method: "get",
    path: "/api/auth/oidc/authorize",
    operationId: "oidcAuthorize",
    summary: "Authorization request (browser)",
    description:
      "A browser navigation (also accepted as a form POST), no authentication: the person signs in and consents interactively. `client_id` and `redirect_uri` are checked first; after that every error goes back to the redirect URI as `error` (`unauthorized_client`, `invalid_request`, `request_not_supported`, `request_uri_not_supported`, `unsupported_response_type`, `invalid_scope`, `login_required`; `access_denied` when the person declines), `error_description`, `state` and `iss` (RFC 9207). On consent the callback carries `code`, `state` and `iss`." +
      PAGE_ERRORS,
    tag: TAG,
    auth: "none",
    query: AuthorizeQuery,
    success: {
      status: 303,
      description: "To the sign-in page (with a cookie binding the browser to it), or back to the redirect URI with an error.",
      body: "redirect",
      headers: {
        Location: "The sign-in page (`/oidc/interaction/{id}`), or `redirect_uri?error=...&error_description=...&state=...&iss=...`.",
        "Set-Cookie": "The interaction cookie (HttpOnly, SameSite=Lax, scoped to the sign-in page), when going to the sign-in page.",
      },
    },
    errors: ["invalid_client", "invalid_redirect_uri"],
    errorBody: "html",
  });

export const oidcToken = operation({
    method: "post",
    path: "/api/auth/oidc/token",
    operationId: "oidcToken",
    summary: "Token endpoint",
    description:
      "Exchanges an authorization code, or rotates a refresh token (spec 3.3, 4.5). Client authentication: HTTP Basic (`client_secret_basic`) or `client_id` and `client_secret` in the body (`client_secret_post`), never both. The body is `application/json` (spec 4.5) or `application/x-www-form-urlencoded` (RFC 6749). Success is top-level token JSON (spec 2.9). Errors of a JSON request are the spec envelope (`error.code` is the OAuth error); errors of a form post are RFC 6749's `{ error, error_description }` (5.2), which OAuth client libraries read. A 401 `invalid_client` after HTTP Basic carries `WWW-Authenticate: Basic`. Failed client authentications are limited per (client_id, client IP) and per client IP (docs/api-conventions.md \"Abuse limits\"): over either, `429 rate_limited` until the window ends. No Idempotency-Key (codes are single use, refresh tokens rotate).",
    tag: TAG,
    auth: "oauthClient",
    rateLimited: false,
    body: TokenRequest,
    form: TokenRequest,
    success: {
      status: 200,
      description: "The tokens, top-level JSON.",
      body: "json",
      schema: TokenResponse,
      headers: { "Cache-Control": "`no-store`.", Pragma: "`no-cache`." },
    },
    errors: ["unsupported_grant_type", "invalid_grant", "invalid_scope", "rate_limited"],
    errorBody: "oauth",
  });

export const oidcUserinfo = operation({
    method: "get",
    path: "/api/auth/oidc/userinfo",
    operationId: "oidcUserinfo",
    summary: "Userinfo (the signed-in person's claims)",
    description:
      "Bearer access token with `openid` and `profile` (also accepted as POST). With `zkp` the predicates `age_over_18`, `age_over_21`, `licence_valid` are added where known; never the date of birth or any raw identity data. Errors carry an RFC 6750 `WWW-Authenticate: Bearer` challenge.",
    tag: TAG,
    auth: "accessToken",
    rateLimited: false,
    success: { status: 200, description: "The claims, top-level JSON (spec 2.10).", body: "json", schema: Userinfo },
    errors: [],
  });

export const oidcLicences = operation({
    method: "get",
    path: "/api/auth/oidc/licenses",
    operationId: "oidcLicences",
    summary: "The person's professional licences",
    description:
      "Bearer access token with `openid` and `doctor_license` (the person agreed to release their licences, numbers included); without it 403 `insufficient_scope`. Spec 4.5 declares no scope here: a deliberate deviation, so an app the person signed into with `openid` alone cannot read their licence numbers (docs/oidc.md \"Account reads\"). A licence past its expiry, or that a registry re-check found lapsed, is never served.",
    tag: TAG,
    auth: "accessToken",
    rateLimited: false,
    success: { status: 200, description: "`{ licenses }` in the envelope (spec 2.10).", schema: z.object({ licenses: z.array(Licence) }) },
    errors: [],
  });

export const oidcVerifications = operation({
    method: "get",
    path: "/api/auth/oidc/verifications",
    operationId: "oidcVerifications",
    summary: "What the person has proven",
    description: "Bearer access token with `openid` and `verifications`. Verdicts only, never document fields.",
    tag: TAG,
    auth: "accessToken",
    rateLimited: false,
    success: { status: 200, description: "`{ verifications }` in the envelope (spec 2.10).", schema: z.object({ verifications: Verifications }) },
    errors: [],
  });

export const oidcPredicateCredential = operation({
    method: "post",
    path: "/api/auth/oidc/credential",
    operationId: "oidcPredicateCredential",
    summary: "The zkp predicates as an SD-JWT VC",
    description:
      "Bearer access token with `openid` and `zkp`. Issues a fresh SD-JWT VC (`dc+sd-jwt`) of the person's predicates (`id_verified`, `age_over_18`, `age_over_21`, `licence_valid` where known), each selectively disclosable and padded with decoys; no `sub`, `iat` to the hour. With `proof` the credential is bound to the holder's key. No Idempotency-Key.",
    tag: TAG,
    auth: "accessToken",
    rateLimited: false,
    body: CredentialRequest,
    form: CredentialRequest,
    success: {
      status: 200,
      description: "The credential, in the envelope.",
      schema: PredicateCredential,
      headers: { "Cache-Control": "`no-store`." },
    },
    errors: [],
  });

export const oidcLogout = operation({
    method: "get",
    path: "/api/auth/oidc/logout",
    operationId: "oidcLogout",
    summary: "RP-initiated logout (browser)",
    description:
      "A browser navigation (also accepted as a form POST), no authentication. With `id_token_hint` every grant of that person for that client is revoked (refresh and access tokens stop at once). Then the browser goes to `post_logout_redirect_uri` with `state`, or sees a signed-out page." +
      PAGE_ERRORS,
    tag: TAG,
    auth: "none",
    query: LogoutQuery,
    success: [
      {
        status: 303,
        description: "To `post_logout_redirect_uri` (with `state` when given).",
        body: "redirect",
        headers: { Location: "`post_logout_redirect_uri`, plus `state`." },
      },
      { status: 200, description: "Without `post_logout_redirect_uri`: a signed-out page.", body: "html" },
    ],
    errors: ["invalid_client", "invalid_redirect_uri"],
    errorBody: "html",
  });

/** The same request as a POST (OIDC Core 3.1.2.1, 5.3.1, RP-Initiated Logout 2): parameters in a form body. */
function asPost<const O extends Operation>(get: O) {
  const { query, method: _get, operationId, summary, ...rest } = get;
  return { ...rest, method: "post" as const, operationId: `${operationId}Post`, summary: `${summary} (POST)`, form: query };
}

export const oidcAuthorizePost = asPost(oidcAuthorize);
export const oidcUserinfoPost = asPost(oidcUserinfo);
export const oidcLogoutPost = asPost(oidcLogout);

export const OIDC_OPERATIONS = operations([
  oidcDiscovery,
  oidcDiscoveryAlias,
  oidcJwks,
  oidcAuthorize,
  oidcToken,
  oidcUserinfo,
  oidcLicences,
  oidcVerifications,
  oidcPredicateCredential,
  oidcLogout,
  oidcAuthorizePost,
  oidcUserinfoPost,
  oidcLogoutPost,
]);
