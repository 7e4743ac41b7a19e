import { decodeJwt } from "jose";
import { randomToken } from "@/lib/crypto/secrets";
import { ApiError } from "@/lib/http/api-error";
import { endpoints, issuer } from "@/lib/oidc/config";
import { authorizationCodeGrant, s256 } from "@/lib/oidc/grants/authorization-code";
import { revokeAccountGrants } from "@/lib/oidc/grants/revoke";
import { accountCallbackUri, accountPageApp } from "./account-page-app";
import { accountSessionCookie, clearCookie, readCookie, readSignInState, SIGN_IN_COOKIE, signInStateCookie } from "./account-cookies";

/**
 * Signing in to the account page: an authorization code flow with PKCE and
 * state against this provider (lib/account-page/account-page-app.ts),
 * so the person meets the one sign-in page (email code or face). The code
 * is redeemed in process; the page keeps no token (the grant is revoked at
 * once), only its own 30-minute cookie.
 */
export type Redirect = { location: string; cookies: string[] };

export const accountPageUrl = (message?: string) => `${issuer()}/account${message ? `?m=${message}` : ""}`;

/** Where a sign-in may send the browser back to besides /account: an activation page (lib/org/face-activation.ts). */
const RETURN_PATH = /^\/activate\/act_[A-Za-z0-9_-]{43}$/;
export const safeReturnPath = (value: string | null | undefined): string | undefined => (value && RETURN_PATH.test(value) ? value : undefined);

export async function startAccountSignIn(returnTo?: string): Promise<Redirect> {
  const app = await accountPageApp();
  const verifier = randomToken("", 48);
  const state = randomToken("", 16);
  const url = new URL(endpoints().authorization);
  url.search = new URLSearchParams({
    client_id: app.clientId,
    redirect_uri: accountCallbackUri(),
    response_type: "code",
    scope: "openid",
    state,
    code_challenge: s256(verifier),
    code_challenge_method: "S256",
  }).toString();
  return { location: url.href, cookies: [signInStateCookie(verifier, state, safeReturnPath(returnTo))] };
}

/** GET /account/callback: back from the sign-in page. */
export async function finishAccountSignIn(query: URLSearchParams, cookieHeader: string | null): Promise<Redirect> {
  const saved = readSignInState(readCookie(cookieHeader, SIGN_IN_COOKIE));
  const cleared = clearCookie(SIGN_IN_COOKIE);
  const code = query.get("code");
  if (!saved || query.get("state") !== saved.state || query.get("iss") !== issuer()) {
    return { location: accountPageUrl("sign_in_failed"), cookies: [cleared] };
  }
  if (!code) return { location: accountPageUrl("sign_in_cancelled"), cookies: [cleared] };
  const app = await accountPageApp();
  let idToken: string | undefined;
  try {
    const tokens = await authorizationCodeGrant(app, {
      grant_type: "authorization_code",
      code,
      redirect_uri: accountCallbackUri(),
      code_verifier: saved.verifier,
    });
    idToken = tokens.id_token;
  } catch (err) {
    if (err instanceof ApiError) return { location: accountPageUrl("sign_in_failed"), cookies: [cleared] };
    throw err;
  }
  const accountId = idToken ? decodeJwt(idToken).sub : undefined;
  if (!accountId) return { location: accountPageUrl("sign_in_failed"), cookies: [cleared] };
  await revokeAccountGrants(accountId, app.id);
  const back = safeReturnPath(saved.return_to);
  return { location: back ? `${issuer()}${back}` : accountPageUrl(), cookies: [cleared, accountSessionCookie(accountId)] };
}
