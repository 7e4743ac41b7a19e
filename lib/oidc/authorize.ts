import { now } from "@/lib/clock";
import { db } from "@/lib/db/client";
import { ApiError } from "@/lib/http/api-error";
import { issuer, OIDC_TTL, splitScope, SUPPORTED_SCOPES } from "./config";
import { withQuery } from "./http";
import { interactionPath, newBrowserSecret, setInteractionCookie } from "./interaction-cookie";

export type AuthorizeOutcome =
  /** Valid: the browser goes to the sign-in page, bound to it by a cookie. */
  | { kind: "interaction"; location: string; cookie: string }
  /** An error sent back to the verified redirect URI (with `state`). */
  | { kind: "redirect"; location: string };

const CHALLENGE = /^[A-Za-z0-9_-]{43}$/;
const MAX_PARAM = 2048;

/**
 * GET (or POST) /api/auth/oidc/authorize (spec 4.5, OIDC Core 3.1.2).
 * `client_id` and `redirect_uri` are checked first; until the redirect URI is
 * known to be registered (exactly: scheme, host, port, path, query), an
 * error is thrown and shown on a page, never redirected. After that, errors
 * go back to the redirect URI with `error`, `error_description`, `state` and
 * `iss` (RFC 9207).
 */
export async function startAuthorization(params: Map<string, string>): Promise<AuthorizeOutcome> {
  const clientId = params.get("client_id");
  if (!clientId) throw new ApiError("invalid_request", { message: "client_id is required" });
  const prisma = await db();
  const app = await prisma.app.findUnique({ where: { clientId } });
  if (!app) throw new ApiError("invalid_client", { message: "Unknown client_id" });
  const redirectUri = params.get("redirect_uri");
  if (!redirectUri) throw new ApiError("invalid_redirect_uri", { message: "redirect_uri is required" });
  if (app.redirectUris.length === 0) {
    throw new ApiError("invalid_redirect_uri", { message: "This app has no redirect URI registered" });
  }
  if (!app.redirectUris.includes(redirectUri)) {
    throw new ApiError("invalid_redirect_uri", {
      message: "redirect_uri does not exactly match a redirect URI registered for this app",
    });
  }

  const state = params.get("state");
  const fail = (error: string, description: string): AuthorizeOutcome => ({
    kind: "redirect",
    location: withQuery(redirectUri, { error, error_description: description, state, iss: issuer() }),
  });

  if (!app.isActive) return fail("unauthorized_client", "This app is not active");
  for (const [name, value] of params) {
    if (value.length > MAX_PARAM) return fail("invalid_request", `${name} is too long`);
  }
  if (params.has("request")) return fail("request_not_supported", "Request objects are not supported");
  if (params.has("request_uri")) return fail("request_uri_not_supported", "request_uri is not supported");
  const responseType = params.get("response_type");
  if (!responseType) return fail("invalid_request", "response_type is required");
  if (responseType !== "code") return fail("unsupported_response_type", "response_type must be code");
  const responseMode = params.get("response_mode");
  if (responseMode && responseMode !== "query") return fail("invalid_request", "response_mode must be query");

  const scopes = splitScope(params.get("scope"));
  if (!scopes.includes("openid")) return fail("invalid_scope", "scope must include openid");
  const unknown = scopes.filter((s) => !(SUPPORTED_SCOPES as readonly string[]).includes(s));
  if (unknown.length) return fail("invalid_scope", `Unknown scope: ${unknown.join(" ")}`);
  const disabled = scopes.filter((s) => !app.scopes.includes(s));
  if (disabled.length) return fail("invalid_scope", `Scope not enabled for this app: ${disabled.join(" ")}`);

  if (!state) return fail("invalid_request", "state is required");

  const challenge = params.get("code_challenge");
  const method = params.get("code_challenge_method");
  if (method && method !== "S256") return fail("invalid_request", "code_challenge_method must be S256");
  if (method && !challenge) return fail("invalid_request", "code_challenge is required with code_challenge_method");
  if (challenge && method !== "S256") return fail("invalid_request", "code_challenge_method=S256 is required (plain is not supported)");
  if (challenge && !CHALLENGE.test(challenge)) return fail("invalid_request", "code_challenge must be a base64url S256 hash (43 characters)");

  const prompt = splitScope(params.get("prompt"));
  if (prompt.includes("none")) {
    if (prompt.length > 1) return fail("invalid_request", "prompt=none cannot be combined with other values");
    // The provider keeps no sign-in session of its own: every authorization signs in.
    return fail("login_required", "Sign-in is required");
  }
  const maxAge = params.get("max_age");
  if (maxAge !== undefined && !/^\d+$/.test(maxAge)) return fail("invalid_request", "max_age must be a whole number of seconds");

  const loginHint = params.get("login_hint");
  const browser = newBrowserSecret();
  const interaction = await prisma.oidcInteraction.create({
    data: {
      appId: app.id,
      redirectUri,
      scope: SUPPORTED_SCOPES.filter((s) => scopes.includes(s)).join(" "),
      state,
      nonce: params.get("nonce") ?? null,
      codeChallenge: challenge ?? null,
      loginHint: loginHint && /^[^\s@]+@[^\s@]+$/.test(loginHint) && loginHint.length <= 254 ? loginHint.toLowerCase() : null,
      browserHash: browser.hash,
      expiresAt: new Date(now().getTime() + OIDC_TTL.interaction * 1000),
    },
  });
  return {
    kind: "interaction",
    location: `${issuer()}${interactionPath(interaction.id)}`,
    cookie: setInteractionCookie(interaction.id, browser.value, OIDC_TTL.interaction),
  };
}
