import { api } from "./api";
import { randomIp } from "./oidc-flow";
import { portalCaller, signInOverHttp, uniqueEmail } from "./portal";

/**
 * A developer's browsers on a server with TRUST_PROXY, each with a client IP
 * of its own (X-Forwarded-For): sign-up, sign-in, next-auth's real sign-out
 * (its CSRF token, as the portal's sign-out button posts it).
 */
export type Browser = { ip: string; cookie: string; call: ReturnType<typeof portalCaller> };

export function forwardedFor(ip: string): Record<string, string> {
  return { "x-forwarded-for": ip };
}

/** A new developer with this password (sign-up from an IP of its own); answers the email. */
export async function signUpOver(base: string, password: string): Promise<string> {
  const email = uniqueEmail("session");
  const res = await api("POST", "/api/portal/sign-up", { base, json: { email, password }, headers: { ...forwardedFor(randomIp()), origin: base } });
  if (res.status !== 201) throw new Error(`sign-up failed: ${res.status} ${res.text}`);
  return email;
}

/** Signs in from a browser of its own (a new IP unless given); throws unless signed in. */
export async function openBrowser(base: string, email: string, password: string, ip = randomIp()): Promise<Browser> {
  const session = await signInOverHttp(email, password, base, forwardedFor(ip));
  if (!session.signedIn) throw new Error(`sign-in failed: ${session.status} ${session.error}`);
  const headers = forwardedFor(ip);
  const call: Browser["call"] = (method, path, options = {}) => portalCaller(session.cookie, base)(method, path, { ...options, headers: { ...headers, ...options.headers } });
  return { ip, cookie: session.cookie, call };
}

/** next-auth's CSRF token and its cookie, as a browser at `ip` holding `cookie` gets them. */
async function csrfOf(base: string, ip: string, cookie = ""): Promise<{ csrfToken: string; cookie: string }> {
  const res = await fetch(`${base}/api/portal/auth/csrf`, { headers: { cookie, ...forwardedFor(ip) } });
  const { csrfToken } = (await res.json()) as { csrfToken: string };
  const set = res.headers.getSetCookie().map((line) => line.split(";")[0]!);
  return { csrfToken, cookie: [cookie, ...set].filter(Boolean).join("; ") };
}

/** A form POST to one of next-auth's endpoints with its CSRF token; the raw response, redirects not followed. */
async function postNextAuth(base: string, path: string, ip: string, cookie: string, fields: Record<string, string>): Promise<Response> {
  const csrf = await csrfOf(base, ip, cookie);
  return fetch(`${base}/api/portal/auth/${path}`, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded", cookie: csrf.cookie, ...forwardedFor(ip) },
    body: new URLSearchParams({ csrfToken: csrf.csrfToken, ...fields }),
  });
}

/** next-auth's sign-out POST, as the portal's sign-out button sends it. */
export function signOutOverHttp(base: string, browser: Pick<Browser, "ip" | "cookie">, callbackUrl = "/sign-in?signedOut=1"): Promise<Response> {
  return postNextAuth(base, "signout", browser.ip, browser.cookie, { callbackUrl });
}

/** next-auth's Credentials callback with a chosen callbackUrl (`json`: answered as `{ url }` instead of a redirect). */
export function credentialsPost(base: string, ip: string, fields: { email: string; password: string; callbackUrl: string; json?: boolean }): Promise<Response> {
  const { json, ...rest } = fields;
  return postNextAuth(base, "callback/credentials", ip, "", { ...rest, ...(json ? { json: "true" } : {}) });
}
