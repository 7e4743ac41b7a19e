import type { App, OidcInteraction } from "@/generated/prisma/client";
import { now } from "@/lib/clock";
import { constantTimeEqual, hashSecret } from "@/lib/crypto/secrets";
import { db } from "@/lib/db/client";
import { currentCodeState, sendLoginCode, verifyLoginCode } from "@/lib/accounts/login-codes";
import { signInAccountByEmail } from "@/lib/accounts/accounts";
import { mailMode, type MailMode } from "@/lib/mail/mailer";
import { EmailSchema } from "@/lib/tenancy/schemas";
import { UUID_PATTERN } from "@/lib/http/validation";
import { issuer, splitScope } from "./config";
import { createGrantWithCode } from "./grants/create-grant";
import { withQuery } from "./http";
import { faceSignInTriesLeft } from "@/lib/oidc/face-sign-in";
import { clearInteractionCookie, csrfToken, csrfValid, interactionPath, openInteraction } from "./interaction-cookie";
import { skipsConsent } from "./first-party";
import { startProviderSession } from "./provider-session";

/**
 * The sign-in request between authorize and the redirect back: the login
 * step (email, then the one-time code or a face scan: lib/oidc/
 * interaction-face.ts) and the consent step (login only: spec 5 rule 6).
 * A request that reused the browser's sign-in session (lib/oidc/
 * provider-session.ts) starts at the consent step. Everything here checks
 * the browser binding first.
 */
type Bound = {
  interaction: OidcInteraction;
  app: App;
  /** False until the request's first stored step: it lives only in the sealed cookie. */
  stored: boolean;
  /** The browser secret (from the sealed cookie): the CSRF token is derived from it. */
  secret: string;
};

/**
 * The sign-in request `id` for the browser holding `cookieValue`: its row
 * once stored (the browser secret must match the row's hash), before that
 * the request sealed in the cookie (lib/oidc/interaction-cookie.ts).
 */
export async function loadBoundInteraction(id: string, cookieValue: string | undefined): Promise<Bound | null> {
  const sealed = openInteraction(cookieValue);
  if (!sealed || sealed.id !== id || !UUID_PATTERN.test(id)) return null;
  const prisma = await db();
  const row = await prisma.oidcInteraction.findUnique({ where: { id }, include: { app: true } });
  if (row) {
    if (row.completedAt || row.expiresAt <= now()) return null;
    if (!constantTimeEqual(row.browserHash, hashSecret(sealed.secret))) return null;
    if (!row.app.isActive) return null;
    const { app, ...interaction } = row;
    return { interaction, app, stored: true, secret: sealed.secret };
  }
  if (sealed.exp <= now().getTime()) return null;
  const app = await prisma.app.findUnique({ where: { id: sealed.appId } });
  if (!app?.isActive) return null;
  const interaction: OidcInteraction = {
    id: sealed.id,
    appId: sealed.appId,
    redirectUri: sealed.redirectUri,
    scope: sealed.scope,
    state: sealed.state,
    nonce: sealed.nonce,
    codeChallenge: sealed.codeChallenge,
    loginHint: sealed.loginHint,
    browserHash: hashSecret(sealed.secret),
    accountId: sealed.accountId ?? null,
    authTime: sealed.authTime ? new Date(sealed.authTime) : null,
    pendingEmail: null,
    pendingMethod: "code",
    expiresAt: new Date(sealed.exp),
    completedAt: null,
    createdAt: now(),
  };
  return { interaction, app, stored: false, secret: sealed.secret };
}

/** Stores a request that so far lived only in its cookie (the first step that needs the database). */
async function ensureStored(bound: Bound): Promise<void> {
  if (bound.stored) return;
  const { id, appId, redirectUri, scope, state, nonce, codeChallenge, loginHint, browserHash, expiresAt, accountId, authTime } = bound.interaction;
  const prisma = await db();
  await prisma.oidcInteraction.upsert({
    where: { id },
    create: { id, appId, redirectUri, scope, state, nonce, codeChallenge, loginHint, browserHash, expiresAt, accountId, authTime },
    update: {},
  });
  bound.stored = true;
}

export type InteractionView =
  | { step: "gone" }
  | {
      step: "email" | "code" | "face" | "consent";
      id: string;
      csrf: string;
      app: { name: string; logo: string | null; environment: string };
      mail: MailMode;
      email: string | null;
      scopes: string[];
      attemptsLeft: number | null;
    };

/** What the sign-in page shows. */
export async function interactionView(id: string, cookieValue: string | undefined): Promise<InteractionView> {
  const bound = await loadBoundInteraction(id, cookieValue);
  if (!bound) return { step: "gone" };
  const { interaction, app } = bound;
  const common = {
    id,
    csrf: csrfToken(bound.secret),
    app: { name: app.name, logo: app.logo, environment: app.environment },
    mail: mailMode(),
    scopes: splitScope(interaction.scope),
  };
  if (interaction.accountId) {
    const prisma = await db();
    const account = await prisma.account.findUnique({ where: { id: interaction.accountId } });
    return { step: "consent", ...common, email: account?.email ?? null, attemptsLeft: null };
  }
  if (interaction.pendingEmail && interaction.pendingMethod === "face") {
    return { step: "face", ...common, email: interaction.pendingEmail, attemptsLeft: await faceSignInTriesLeft(id) };
  }
  if (interaction.pendingEmail) {
    const code = await currentCodeState(id);
    return { step: "code", ...common, email: interaction.pendingEmail, attemptsLeft: code?.attemptsLeft ?? null };
  }
  return { step: "email", ...common, email: interaction.loginHint, attemptsLeft: null };
}

/** What a form post leads to: back to the page (with a message code) or out to the app. */
export type ActionResult = { location: string; setCookie?: string[] };

export const page = (id: string, message?: string) =>
  `${issuer()}${interactionPath(id)}${message ? `?m=${encodeURIComponent(message)}` : ""}`;

export type FormInput = {
  id: string;
  /** The interaction cookie's value. */
  cookie: string | undefined;
  /** The raw Cookie header (the provider session's cookie is in it). */
  cookieHeader: string | null;
  form: Map<string, string>;
  ip: string | null;
};

async function bind(input: FormInput): Promise<Bound | ActionResult> {
  const bound = await loadBoundInteraction(input.id, input.cookie);
  if (!bound) return { location: page(input.id) };
  if (!csrfValid(bound.secret, input.form.get("csrf"))) return { location: page(input.id, "csrf") };
  return bound;
}
const isResult = (v: Bound | ActionResult): v is ActionResult => "location" in v;

/**
 * POST .../email: send a code to the address (or again, with `resend`);
 * with `method=face`, no code: the face step for that address (also from
 * the code step, for the address the code went to).
 */
export async function submitEmail(input: FormInput): Promise<ActionResult> {
  const bound = await bind(input);
  if (isResult(bound)) return bound;
  const { interaction, app } = bound;
  if (interaction.accountId) return { location: page(input.id) };
  const raw = input.form.get("resend") ? interaction.pendingEmail : (input.form.get("email") ?? interaction.pendingEmail);
  const parsed = EmailSchema.safeParse(raw ?? "");
  if (!parsed.success || parsed.data.length > 254) return { location: page(input.id, "email_invalid") };
  await ensureStored(bound);
  if (input.form.get("method") === "face") {
    const prisma = await db();
    await prisma.oidcInteraction.update({ where: { id: interaction.id }, data: { pendingEmail: parsed.data, pendingMethod: "face" } });
    return { location: page(input.id) };
  }
  const outcome = await sendLoginCode({ interactionId: interaction.id, email: parsed.data, appName: app.name, ip: input.ip });
  if (outcome === "sent" || outcome === "logged") {
    return { location: page(input.id, input.form.get("resend") ? "code_sent" : undefined) };
  }
  return { location: page(input.id, outcome === "too_many" ? "too_many_codes" : outcome) };
}

/** POST .../restart: back to the email step (also from consent: "use another account"). */
export async function restartLogin(input: FormInput): Promise<ActionResult> {
  const bound = await bind(input);
  if (isResult(bound)) return bound;
  if (bound.stored || bound.interaction.accountId) {
    await ensureStored(bound);
    const prisma = await db();
    await prisma.oidcInteraction.updateMany({
      where: { id: input.id, completedAt: null },
      data: { pendingEmail: null, pendingMethod: "code", accountId: null, authTime: null },
    });
  }
  return { location: page(input.id) };
}

/**
 * The person proved who they are (one-time code or face): the request goes
 * on to consent, and the browser's provider session starts (replacing its
 * previous one). For the service's own account page (no consent:
 * lib/oidc/first-party.ts) the code goes straight back instead. `location`
 * is where the browser goes next. Null when the request was completed
 * meanwhile.
 */
export async function completeSignIn(
  interactionId: string,
  accountId: string,
  cookieHeader: string | null,
): Promise<{ setCookie: string[]; location: string } | null> {
  const prisma = await db();
  const authTime = now();
  const signedIn = await prisma.oidcInteraction.updateMany({
    where: { id: interactionId, completedAt: null },
    data: { accountId, authTime, pendingEmail: null, pendingMethod: "code" },
  });
  if (signedIn.count === 0) return null;
  const session = await startProviderSession(accountId, authTime, cookieHeader);
  const row = await prisma.oidcInteraction.findUnique({ where: { id: interactionId }, include: { app: true } });
  if (row && skipsConsent(row.app)) {
    const { app, ...interaction } = row;
    const done = await finishInteraction(interaction, app, true);
    if (done) return { location: done.location, setCookie: [session, ...(done.setCookie ?? [])] };
  }
  return { setCookie: [session], location: page(interactionId) };
}

/** POST .../code: the one-time code signs the person in (creating the account on first use). */
export async function submitCode(input: FormInput): Promise<ActionResult> {
  const bound = await bind(input);
  if (isResult(bound)) return bound;
  const { interaction } = bound;
  if (interaction.accountId || !interaction.pendingEmail) return { location: page(input.id) };
  const code = (input.form.get("code") ?? "").replace(/\s+/g, "");
  if (!/^\d{6}$/.test(code)) return { location: page(input.id, "code_format") };
  const outcome = await verifyLoginCode(interaction.id, code);
  if (!outcome.ok) return { location: page(input.id, outcome.reason) };
  const account = await signInAccountByEmail(outcome.email);
  const signedIn = await completeSignIn(interaction.id, account.id, input.cookieHeader);
  return { location: signedIn?.location ?? page(input.id), setCookie: signedIn?.setCookie };
}

/**
 * POST .../consent: `decision=allow` issues the authorization code (a new
 * grant) and sends the browser back with `code`, `state` and `iss`;
 * `decision=deny` (also the login step's cancel) sends `error=access_denied`.
 * Either way the request is used up.
 */
export async function submitConsent(input: FormInput): Promise<ActionResult> {
  const bound = await bind(input);
  if (isResult(bound)) return bound;
  await ensureStored(bound);
  return (await finishInteraction(bound.interaction, bound.app, input.form.get("decision") === "allow")) ?? { location: page(input.id) };
}

/**
 * Uses the request up and sends the browser back to the app: with `allow`
 * and a signed-in person, a new grant's authorization code; otherwise
 * `error=access_denied`. Null when the request was already used up.
 */
async function finishInteraction(interaction: OidcInteraction, app: App, allow: boolean): Promise<ActionResult | null> {
  const prisma = await db();
  const finished = await prisma.oidcInteraction.updateMany({
    where: { id: interaction.id, completedAt: null },
    data: { completedAt: now() },
  });
  if (finished.count === 0) return null;
  const setCookie = clearInteractionCookie(interaction.id);
  const back = (params: Record<string, string | undefined>) =>
    withQuery(interaction.redirectUri, { ...params, state: interaction.state, iss: issuer() });

  if (!allow || !interaction.accountId || !interaction.authTime) {
    return {
      location: back({ error: "access_denied", error_description: "The user declined to sign in" }),
      setCookie,
    };
  }
  const { code } = await createGrantWithCode({
    appId: app.id,
    accountId: interaction.accountId,
    scope: interaction.scope,
    nonce: interaction.nonce,
    authTime: interaction.authTime,
    redirectUri: interaction.redirectUri,
    codeChallenge: interaction.codeChallenge,
  });
  return { location: back({ code }), setCookie };
}
