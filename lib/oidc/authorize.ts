import type { App } from "@/generated/prisma/client";
import { now } from "@/lib/clock";
import { db } from "@/lib/db/client";
import { ApiError } from "@/lib/http/api-error";
import { issuer, OIDC_TTL, splitScope, SUPPORTED_SCOPES } from "./config";
import { consentCovers } from "./grants/consent";
import { skipsConsent } from "./first-party";
import { createGrantWithCode } from "./grants/create-grant";
import { withQuery } from "./http";
import { verifyIdTokenHint } from "./id-token";
import { currentProviderSession, type ProviderSession } from "./provider-session";
import { interactionPath, newBrowserSecret, sealInteraction, setInteractionCookie } from "./interaction-cookie";
import { AuthorizeQuery, issuesByParam, paramsObject, type AuthorizeRequest } from "./schemas";

export type AuthorizeOutcome =
  /** Valid: the browser goes to the sign-in page, the request sealed in its cookie (one Set-Cookie per chunk). */
  | { kind: "interaction"; location: string; cookies: string[] }
  /** Back to the verified redirect URI: an error (with `state`), or the code of a reused sign-in. */
  | { kind: "redirect"; location: string };

const MAX_PARAM = 2048;

/**
 * GET (or POST) /api/auth/oidc/authorize (spec 4.5, OIDC Core 3.1.2).
 * `client_id` and `redirect_uri` are checked first; until the redirect URI is
 * known to be registered (exactly: scheme, host, port, path, query), an
 * error is thrown and shown on a page, never redirected. After that, errors
 * go back to the redirect URI with `error`, `error_description`, `state` and
 * `iss` (RFC 9207).
 *
 * A browser with a live sign-in session (lib/oidc/provider-session.ts) that
 * the request lets be reused (reusableSession) skips the sign-in: with the
 * app's consent already given in that login (or for the service's own
 * account page, which asks none: lib/oidc/first-party.ts), the code goes
 * straight back; otherwise the page opens at consent. `prompt=none` never shows a page: it
 * answers `login_required` or `consent_required` instead.
 */
export async function startAuthorization(params: Map<string, string>, cookieHeader: string | null = null): Promise<AuthorizeOutcome> {
  const clientId = AuthorizeQuery.shape.client_id.safeParse(params.get("client_id"));
  if (!clientId.success) throw new ApiError("invalid_request", { message: clientId.error.issues[0]?.message });
  const prisma = await db();
  const app = await prisma.app.findUnique({ where: { clientId: clientId.data } });
  if (!app) throw new ApiError("invalid_client", { message: "Unknown client_id" });
  const redirect = AuthorizeQuery.shape.redirect_uri.safeParse(params.get("redirect_uri"));
  if (!redirect.success) throw new ApiError("invalid_redirect_uri", { message: redirect.error.issues[0]?.message });
  const redirectUri = redirect.data;
  if (app.redirectUris.length === 0) {
    throw new ApiError("invalid_redirect_uri", { message: "This app has no redirect URI registered" });
  }
  if (!app.redirectUris.includes(redirectUri)) {
    throw new ApiError("invalid_redirect_uri", {
      message: "redirect_uri does not exactly match a redirect URI registered for this app",
    });
  }

  const checked = checkAuthorizationRequest(params, app);
  if (!checked.ok) {
    return {
      kind: "redirect",
      location: withQuery(redirectUri, { error: checked.error, error_description: checked.description, state: params.get("state"), iss: issuer() }),
    };
  }
  const { request, scopes } = checked;
  const back = (query: Record<string, string>) => ({
    kind: "redirect" as const,
    location: withQuery(redirectUri, { ...query, state: request.state, iss: issuer() }),
  });
  const scope = SUPPORTED_SCOPES.filter((s) => scopes.includes(s)).join(" ");
  const prompts = splitScope(request.prompt);
  const hint = request.id_token_hint ? await verifyIdTokenHint(request.id_token_hint) : null;
  if (request.id_token_hint && !hint?.aud.includes(app.clientId)) {
    return back({ error: "invalid_request", error_description: "id_token_hint is not an ID token this provider issued to this app" });
  }
  const session = reusableSession(await currentProviderSession(cookieHeader), {
    prompts,
    maxAge: request.max_age === undefined ? undefined : Number(request.max_age),
    hintSubject: hint?.sub ?? null,
    at: now(),
  });
  if (!session && prompts.includes("none")) return back({ error: "login_required", error_description: "Sign-in is required" });
  if (session && (skipsConsent(app) || (!prompts.includes("consent") && (await consentCovers(session.accountId, app.id, scope))))) {
    const { code } = await createGrantWithCode({
      appId: app.id,
      accountId: session.accountId,
      scope,
      nonce: request.nonce ?? null,
      authTime: session.authTime,
      redirectUri,
      codeChallenge: request.code_challenge ?? null,
    });
    return back({ code });
  }
  if (session && prompts.includes("none")) {
    return back({ error: "consent_required", error_description: "The person has not allowed this app yet" });
  }
  const loginHint = request.login_hint;
  const browser = newBrowserSecret();
  // No database row for an anonymous request: the checked request is sealed into the browser's
  // cookie and stored only when the person acts on it (lib/oidc/interaction.ts).
  const id = crypto.randomUUID();
  const cookie = setInteractionCookie(
    id,
    sealInteraction({
      id,
      secret: browser.value,
      appId: app.id,
      redirectUri,
      scope,
      state: request.state,
      nonce: request.nonce ?? null,
      codeChallenge: request.code_challenge ?? null,
      loginHint: loginHint && /^[^\s@]+@[^\s@]+$/.test(loginHint) && loginHint.length <= 254 ? loginHint.toLowerCase() : null,
      ...(session ? { accountId: session.accountId, authTime: session.authTime.getTime() } : {}),
      exp: now().getTime() + OIDC_TTL.interaction * 1000,
    }),
    OIDC_TTL.interaction,
  );
  if (!cookie) return back({ error: "invalid_request", error_description: "The request's parameters are too long together" });
  return { kind: "interaction", location: `${issuer()}${interactionPath(id)}`, cookies: cookie };
}

/**
 * The browser's sign-in session when this request may reuse it (OIDC Core
 * 3.1.2.1), else null (the person signs in again): not with
 * `prompt=login` or `select_account`, not when the sign-in is older than
 * `max_age` seconds, not when `id_token_hint` names someone else.
 */
export function reusableSession(
  session: ProviderSession | null,
  request: { prompts: string[]; maxAge: number | undefined; hintSubject: string | null; at: Date },
): ProviderSession | null {
  if (!session) return null;
  if (request.prompts.includes("login") || request.prompts.includes("select_account")) return null;
  if (request.maxAge !== undefined && request.at.getTime() - session.authTime.getTime() > request.maxAge * 1000) return null;
  if (request.hintSubject !== null && request.hintSubject !== session.accountId) return null;
  return session;
}

type AuthorizationCheck =
  | { ok: true; request: AuthorizeRequest; scopes: string[] }
  /** An OAuth error for the (trusted) redirect URI. */
  | { ok: false; error: string; description: string };

/**
 * The authorization request once its client and redirect URI are known,
 * checked in this order: the app is active, no parameter is too long, no
 * request object, then the parameters (AuthorizeQuery): response type and
 * mode, scope (and each scope enabled on the app), state, PKCE, prompt,
 * max_age.
 */
export function checkAuthorizationRequest(params: ReadonlyMap<string, string>, app: Pick<App, "isActive" | "scopes">): AuthorizationCheck {
  const fail = (error: string, description: string): AuthorizationCheck => ({ ok: false, error, description });
  if (!app.isActive) return fail("unauthorized_client", "This app is not active");
  for (const [name, value] of params) {
    if (value.length > MAX_PARAM) return fail("invalid_request", `${name} is too long`);
  }
  if (params.has("request")) return fail("request_not_supported", "Request objects are not supported");
  if (params.has("request_uri")) return fail("request_uri_not_supported", "request_uri is not supported");

  const parsed = AuthorizeQuery.safeParse(paramsObject(params));
  const issues = issuesByParam(parsed);
  const responseType = issues.get("response_type");
  if (responseType) return fail(params.has("response_type") ? "unsupported_response_type" : "invalid_request", responseType.message);
  const responseMode = issues.get("response_mode");
  if (responseMode) return fail("invalid_request", responseMode.message);
  const scope = issues.get("scope");
  if (scope) return fail("invalid_scope", scope.message);
  const scopes = splitScope(params.get("scope"));
  const disabled = scopes.filter((s) => !app.scopes.includes(s));
  if (disabled.length) return fail("invalid_scope", `Scope not enabled for this app: ${disabled.join(" ")}`);
  const state = issues.get("state");
  if (state) return fail("invalid_request", state.message);
  const method = issues.get("code_challenge_method");
  if (method) return fail("invalid_request", method.message);
  const pairing = pkcePairError(params.get("code_challenge"), params.get("code_challenge_method"));
  if (pairing) return fail("invalid_request", pairing);
  const challenge = issues.get("code_challenge");
  if (challenge) return fail("invalid_request", challenge.message);
  const prompt = promptError(params.get("prompt"));
  if (prompt) return fail(prompt.error, prompt.description);
  const maxAge = issues.get("max_age");
  if (maxAge) return fail("invalid_request", maxAge.message);
  if (!parsed.success) return fail("invalid_request", parsed.error.issues[0]?.message ?? "Invalid request");
  return { ok: true, request: parsed.data, scopes };
}

/** PKCE is S256 or nothing: a challenge and its method go together (RFC 7636 4.3). */
function pkcePairError(challenge: string | undefined, method: string | undefined): string | null {
  if (method && !challenge) return "code_challenge is required with code_challenge_method";
  if (challenge && method !== "S256") return "code_challenge_method=S256 is required (plain is not supported)";
  return null;
}

/** `prompt=none` stands alone (OIDC Core 3.1.2.1); what it answers depends on the sign-in session (startAuthorization). */
function promptError(prompt: string | undefined): { error: string; description: string } | null {
  const values = splitScope(prompt);
  if (values.includes("none") && values.length > 1) return { error: "invalid_request", description: "prompt=none cannot be combined with other values" };
  return null;
}
