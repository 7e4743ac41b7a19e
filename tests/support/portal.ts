import { api, inSharedDatabase, shared, type ApiResponse } from "./api";
import { mailText, type Inbox } from "./smtp";

/**
 * A developer of the portal over HTTP, as a browser would be: sign-up
 * (POST /api/portal/sign-up), then next-auth's CSRF token and Credentials
 * callback; the session cookie is kept and sent by `call`, with the portal's
 * own Origin on state-changing requests (the cross-site check).
 */
export type PortalDeveloper = {
  email: string;
  password: string;
  cookie: string;
  organizationId: string;
  call(method: string, path: string, options?: { json?: unknown; form?: FormData; headers?: Record<string, string> }): Promise<ApiResponse>;
};

let counter = 0;
export function uniqueEmail(label = "dev"): string {
  return `${label}-${Date.now()}-${counter++}-${Math.random().toString(36).slice(2, 6)}@example.com`;
}

function cookiesOf(res: Response, jar: Map<string, string>) {
  for (const line of res.headers.getSetCookie()) {
    const [pair] = line.split(";");
    const eq = pair!.indexOf("=");
    jar.set(pair!.slice(0, eq).trim(), pair!.slice(eq + 1));
  }
}

const header = (jar: Map<string, string>) => [...jar].map(([k, v]) => `${k}=${v}`).join("; ");

/**
 * next-auth sign-in with email and password; returns the Credentials callback's status, the error code (if any) and the cookies.
 * `headers` go with both requests (`X-Forwarded-For` for a client IP of its own, on a server with TRUST_PROXY).
 */
export async function signInOverHttp(email: string, password: string, base = shared().url, headers: Record<string, string> = {}) {
  const jar = new Map<string, string>();
  const csrf = await fetch(`${base}/api/portal/auth/csrf`, { headers });
  cookiesOf(csrf, jar);
  const { csrfToken } = (await csrf.json()) as { csrfToken: string };
  const res = await fetch(`${base}/api/portal/auth/callback/credentials`, {
    method: "POST",
    headers: { ...headers, "content-type": "application/x-www-form-urlencoded", cookie: header(jar) },
    body: new URLSearchParams({ csrfToken, email, password, callbackUrl: "/dashboard", json: "true" }),
  });
  cookiesOf(res, jar);
  const body = (await res.json()) as { url: string };
  const error = new URL(body.url).searchParams.get("error");
  return { status: res.status, error, cookie: header(jar), signedIn: !error && jar.has("next-auth.session-token") };
}

export function portalCaller(cookie: string, base = shared().url): PortalDeveloper["call"] {
  return (method, path, options = {}) =>
    api(method, path, {
      base,
      json: options.json,
      form: options.form,
      headers: { cookie, ...(method === "GET" ? {} : { origin: base }), ...options.headers },
    });
}

/** The sign-up form's request, from the portal's own page (its Origin). */
export function postSignUp(body: Record<string, unknown>, base = shared().url, headers: Record<string, string> = {}) {
  return api("POST", "/api/portal/sign-up", { base, json: body, headers: { origin: base, ...headers } });
}

/** The link of the oldest unread email verification mail to `email`, as mailed. */
export async function verificationLinkFor(inbox: Inbox, email: string): Promise<string> {
  const text = mailText(await inbox.next(email));
  const link = text.match(/https?:\/\/\S+\/verify-email#token=[A-Za-z0-9_%-]+/)?.[0];
  if (!link) throw new Error(`no verification link in the mail to ${email}:\n${text}`);
  return link;
}

/** The token of the oldest unread email verification mail to `email`. */
export async function verificationTokenFor(inbox: Inbox, email: string): Promise<string> {
  return decodeURIComponent(new URL(await verificationLinkFor(inbox, email)).hash.replace(/^#token=/, ""));
}

/** What the verification page does with the link's token. */
export function confirmEmail(token: string, base = shared().url) {
  return api("POST", "/api/portal/email-verification/confirm", { base, json: { token }, headers: { origin: base } });
}

/**
 * How signUpDeveloper verifies the email, so the organization holds its 100
 * USD welcome credit: through the mailed link read from the server's mail
 * (an Inbox), as a developer does; as the operator does on a server without
 * mail (the shared server), with the function `developer:verify-email`
 * runs, in this process on the shared database; or not at all (`null`: an
 * empty wallet).
 */
export type Verification = Inbox | "operator" | null;

/** Signs up a new developer, verifies the email (by default: on the shared server, as its operator) and signs in. */
export async function signUpDeveloper(
  base = shared().url,
  password = "correct-horse-battery",
  verify: Verification = base === shared().url ? "operator" : null,
): Promise<PortalDeveloper> {
  const email = uniqueEmail();
  const created = await postSignUp({ email, password }, base);
  if (created.status !== 201) throw new Error(`sign-up failed: ${created.status} ${created.text}`);
  if (verify === "operator") {
    await inSharedDatabase(async () => (await import("@/lib/tenancy/verify-developer-email")).verifyDeveloperEmailByAddress(email));
  } else if (verify) {
    const confirmed = await confirmEmail(await verificationTokenFor(verify, email), base);
    if (confirmed.status !== 200) throw new Error(`email verification failed: ${confirmed.status} ${confirmed.text}`);
  }
  const session = await signInOverHttp(email, password, base);
  if (!session.signedIn) throw new Error(`sign-in failed: ${session.status} ${session.error}`);
  return { email, password, cookie: session.cookie, organizationId: created.body.data.organization_id, call: portalCaller(session.cookie, base) };
}

/** An app of `developer`'s organization made in the portal, with an API key from the portal. */
export async function createPortalApp(developer: PortalDeveloper, name: string, environment: "test" | "production") {
  const created = await developer.call("POST", "/api/portal/apps", { json: { name, environment } });
  if (created.status !== 201) throw new Error(`app create failed: ${created.status} ${created.text}`);
  const key = await developer.call("POST", `/api/portal/apps/${created.body.data.app_id}/keys`, { json: { name: "backend" } });
  if (key.status !== 201) throw new Error(`key create failed: ${key.status} ${key.text}`);
  return { appId: created.body.data.app_id as string, apiKey: key.body.data.api_key as string };
}
