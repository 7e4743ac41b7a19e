import * as client from "openid-client";
import { appLink, config, isLoopback } from "./config";
import { readSealedCookie, setSealedCookie } from "./cookies";

/**
 * Sign-in with the verification service's OpenID Connect provider, done by
 * openid-client: discovery, authorization code with PKCE (S256), state and
 * nonce, the code exchange and the ID token's validation.
 */
export const SCOPE = "openid profile verifications";
export const CALLBACK_PATH = "/callback";
export const LOGIN_COOKIE_NAME = "example_login";
export const USER_COOKIE_NAME = "example_user";

export type SignedInUser = { sub: string; email: string; name: string | null; accessToken: string };

let discovered: Promise<client.Configuration> | undefined;

function oidcConfiguration(): Promise<client.Configuration> {
  const { serviceUrl, clientId, clientSecret } = config();
  discovered ??= client
    .discovery(serviceUrl, clientId, clientSecret, undefined, isLoopback(serviceUrl) ? { execute: [client.allowInsecureRequests] } : undefined)
    .catch((err: unknown) => {
      discovered = undefined; // try again on the next sign-in
      throw err;
    });
  return discovered;
}

/** The provider's authorization URL; the PKCE verifier, state and nonce wait in a sealed cookie for ten minutes. */
export async function beginSignIn(): Promise<URL> {
  const verifier = client.randomPKCECodeVerifier();
  const state = client.randomState();
  const nonce = client.randomNonce();
  await setSealedCookie(LOGIN_COOKIE_NAME, { verifier, state, nonce }, 600);
  return client.buildAuthorizationUrl(await oidcConfiguration(), {
    redirect_uri: appLink(CALLBACK_PATH).href,
    scope: SCOPE,
    code_challenge: await client.calculatePKCECodeChallenge(verifier),
    code_challenge_method: "S256",
    state,
    nonce,
  });
}

/**
 * The provider sent the browser back: exchange the code (checking state,
 * nonce and the ID token), read the person's email and name from userinfo,
 * and keep who they are in a sealed cookie for as long as the access token lives.
 */
export async function completeSignIn(callbackUrl: URL): Promise<SignedInUser> {
  const login = await readSealedCookie<{ verifier: string; state: string; nonce: string }>(LOGIN_COOKIE_NAME);
  if (!login) throw new Error("The sign-in took too long or started in another browser; please sign in again.");
  const configuration = await oidcConfiguration();
  const tokens = await client.authorizationCodeGrant(configuration, callbackUrl, {
    pkceCodeVerifier: login.verifier,
    expectedState: login.state,
    expectedNonce: login.nonce,
    idTokenExpected: true,
  });
  const sub = tokens.claims()!.sub;
  const info = await client.fetchUserInfo(configuration, tokens.access_token, sub);
  const user: SignedInUser = {
    sub,
    email: typeof info.email === "string" ? info.email : sub,
    name: typeof info.name === "string" ? info.name : null,
    accessToken: tokens.access_token,
  };
  await setSealedCookie(USER_COOKIE_NAME, user, tokens.expiresIn() ?? 900);
  return user;
}

/** The signed-in person, or null. */
export function currentUser(): Promise<SignedInUser | null> {
  return readSealedCookie<SignedInUser>(USER_COOKIE_NAME);
}
