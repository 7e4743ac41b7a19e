import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import * as client from "openid-client";
import { beforeAll, describe, expect, it } from "vitest";
import { chromiumMissing, launchChromium, seriousViolations } from "../browser/browser";
import { personInFrontOfCamera, personLog } from "../browser/camera-person";
import { writeStillCamera } from "../fixtures/camera/generate-camera";
import { api, bearer as sessionBearer, checkOf, createSession, createTenant, createWorkflow, keyHeader, shared, type Tenant } from "../support/api";
import { cli } from "../support/cli";
import { sql } from "../support/database";
import { useServerDatabase } from "../support/domain";
import { fixture, imageForm } from "../support/images";
import { authorize, csrfOf, exchange, get, loginFirstParty, newEmail, provider, randomIp, readCode, text, useOidcProvider } from "../support/oidc-flow";
import { underScreenLight } from "../support/screen-light";

/**
 * The organization API's roster writes (spec 3.2, 4.6; README "Organization
 * API"): adding members, invitations emailed by the background job queue
 * to a local SMTP server, re-sending invites, and face activation through
 * the hosted activation page, for a production app on a production server
 * (this file's own OIDC server with SMTP: tests/support/oidc-flow.ts).
 */
useServerDatabase();
useOidcProvider({ JOB_WORKER: "on" }); // the production default: this server sends the invitation mails

const op = { get url() { return provider().op.url; } };
const PROD_REDIRECT = "https://rp.example/callback";
const PERFORMS: Record<string, string> = { "turn_left,turn_right": "a-left-right", "turn_right,turn_left": "a-right-left" };
const LINK = /https?:\/\/[^\s]+\/activate\/act_[A-Za-z0-9_-]{43}/;

let t: Tenant;
let prodConfig: client.Configuration;
const ip = randomIp();

function sdk(method: string, path: string, json?: unknown, tenant: Tenant = t) {
  return api(method, `/api/sdk/members${path}`, {
    base: op.url,
    headers: { "X-Client-Id": tenant.clientId, "X-Client-Secret": tenant.clientSecret, "x-forwarded-for": ip },
    json,
  });
}
const emails = (n: number, tag: string) => Array.from({ length: n }, (_, i) => `${tag}-${i}-${Date.now()}@example.com`);
const statusOf = async (email: string) => (await sdk("POST", "/resolve", { email })).body.data.member?.status;
async function eventually<T>(read: () => Promise<T>, ok: (v: T) => boolean, timeoutMs = 60_000): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (ok(value) || Date.now() > until) return value;
    await new Promise((r) => setTimeout(r, 250));
  }
}
/** The activation link in the next invitation mail to `email`. */
async function invitationLink(email: string): Promise<string> {
  const mail = await provider().smtp.next(email, 60_000);
  expect(mail.raw).toMatch(/invited you: activate your\s+account/);
  const link = mail.raw.replace(/=\r?\n/g, "").match(LINK)?.[0];
  expect(link, mail.raw).toBeTruthy();
  return link!;
}

beforeAll(async () => {
  t = await createTenant(shared().env, "production");
  await cli(["app:redirect-uri", "--app", t.appId, "--uri", PROD_REDIRECT], shared().env);
  prodConfig = await client.discovery(new URL(op.url), t.clientId, t.clientSecret, undefined, { execute: [client.allowInsecureRequests] });
});

describe("add members (POST /api/sdk/members)", () => {
  it("validates per item with a per-field map; 1 to 500 members", async () => {
    for (const members of [[], Array.from({ length: 501 }, (_, i) => ({ email: `m${i}@example.com` }))]) {
      const res = await sdk("POST", "", { members });
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe("invalid_request");
      expect(Object.keys(res.body.data.errors)).toEqual(["members"]);
    }
    const bad = await sdk("POST", "", { members: [{ email: "ok@example.com" }, { email: "not-an-email" }, { email: "x@example.com", role: "king" }, { first_name: "No email" }], invite: "sms" });
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body.data.errors).sort()).toEqual(["invite", "members.1.email", "members.2.role", "members.3.email"]);
    expect((await sdk("POST", "", { members: "a@example.com" })).status).toBe(400);
    // Nothing was written by a refused request.
    expect(await statusOf("ok@example.com")).toBeUndefined();
    const noAuth = await api("POST", "/api/sdk/members", { base: op.url, json: { members: [{ email: "a@example.com" }] } });
    expect(noAuth.status).toBe(401);
  });

  it("adds 500 in one call (notify false: nothing sent), skips duplicates in the request and on the roster", async () => {
    const batch = emails(500, "bulk");
    const res = await sdk("POST", "", { members: batch.map((email, i) => ({ email, first_name: `F${i}`, role: i === 0 ? "admin" : "member" })), notify: false, invite: "email" });
    expect(res.status).toBe(201);
    expect(res.body.data.created).toHaveLength(500);
    expect(res.body.data.skipped).toEqual([]);
    expect(res.body.data.notified).toBe(false);
    expect(res.body.data.created[0]).toMatchObject({ email: batch[0], first_name: "F0", role: "admin", status: "invited", active: false, svc_id: null, activation_link: null, invite_method: "none" });
    expect(res.body.data.created[0].member_id).toMatch(/^vmem_[0-9a-f]{24}$/);
    expect(res.body.data.created.map((m: { email: string }) => m.email)).toEqual(batch);
    // The list shows role member only.
    const listed = (await sdk("GET", "")).body.data.members.map((m: { email: string }) => m.email);
    expect(listed).toContain(batch[1]);
    expect(listed).not.toContain(batch[0]);

    const again = await sdk("POST", "", { members: [{ email: batch[1]!.toUpperCase() }, { email: "fresh-" + batch[2] }, { email: "fresh-" + batch[2] }], notify: false });
    expect(again.status).toBe(201);
    expect(again.body.data.created.map((m: { email: string }) => m.email)).toEqual(["fresh-" + batch[2]]);
    expect(again.body.data.skipped).toEqual(expect.arrayContaining([{ email: batch[1], reason: "duplicate" }, { email: "fresh-" + batch[2], reason: "duplicate" }]));
    expect(again.body.data.skipped).toHaveLength(2);
  });

  it("invite modes: face returns the link (link_sent); email and auto email it (invited, then link_sent once sent); the link opens the activation page", async () => {
    const [faceOne, emailOne, autoOne, autoQuiet] = emails(4, "modes");
    const face = (await sdk("POST", "", { members: [{ email: faceOne }], invite: "face", notify: false })).body.data;
    expect(face.created[0]).toMatchObject({ status: "link_sent", invite_method: "face", activation_link: expect.stringMatching(LINK) });
    expect(face.notified).toBe(false);
    const quiet = (await sdk("POST", "", { members: [{ email: autoQuiet }], notify: false })).body.data.created[0];
    expect(quiet).toMatchObject({ invite_method: "face", status: "link_sent", activation_link: expect.stringMatching(LINK) });

    const mailed = (await sdk("POST", "", { members: [{ email: emailOne }, { email: autoOne }], invite: "email" })).body.data;
    expect(mailed.notified).toBe(true);
    for (const m of mailed.created) expect(m).toMatchObject({ invite_method: "email", activation_link: null });
    const auto = (await sdk("POST", "", { members: [{ email: `again-${autoOne}` }] })).body.data.created[0];
    expect(auto).toMatchObject({ invite_method: "email", activation_link: null });

    const link = await invitationLink(emailOne!);
    await invitationLink(autoOne!);
    expect(await eventually(() => statusOf(emailOne!), (s) => s === "link_sent")).toBe("link_sent");
    const page = await get(link, { ip });
    expect(page.status).toBe(200);
    expect(text(await page.text())).toContain(`Activate your account at`);
    // The face link was not emailed (notify false).
    expect(provider().smtp.messages.some((m) => m.to.includes(faceOne!))).toBe(false);
  });
});

describe("re-send invite (POST /api/sdk/members/{member_id}/invite)", () => {
  it("a new link supersedes the old one; 404 unknown, 409 already_active and deactivated; 10 requests per minute", async () => {
    const tenant = await createTenant(shared().env, "production");
    const [email] = emails(1, "resend");
    const created = (await sdk("POST", "", { members: [{ email }], invite: "face", notify: false }, tenant)).body.data.created[0];
    const first = created.activation_link as string;
    const resent = await sdk("POST", `/${created.member_id}/invite`, { notify: false }, tenant);
    expect(resent.status).toBe(200);
    expect(resent.headers.get("x-ratelimit-limit")).toBe("10");
    expect(resent.body.data.member).toMatchObject({ member_id: created.member_id, status: "link_sent" });
    expect(resent.body.data.activation_link).toMatch(LINK);
    expect(resent.body.data.activation_link).not.toBe(first);
    const old = await get(first, { ip });
    expect(old.status).toBe(404);
    // The friendly page (rendered from the RSC payload: Next serves a notFound() page of a dynamic route that way, vercel/next.js#62228).
    expect(await old.text()).toContain("invalid_activation");
    expect((await get(resent.body.data.activation_link, { ip })).status).toBe(200);
    expect((await get(`${op.url}/activate/not-a-token`, { ip })).status).toBe(404);

    // By email, with notify (default): emailed as well.
    const byEmail = await sdk("POST", `/${encodeURIComponent(email!)}/invite`, undefined, tenant);
    expect(byEmail.status).toBe(200);
    expect(await invitationLink(email!)).toBe(byEmail.body.data.activation_link);

    expect((await sdk("POST", "/vmem_000000000000000000000000/invite", {}, tenant)).body.error.code).toBe("not_found");
    await sdk("PATCH", `/${created.member_id}/deactivate`, undefined, tenant);
    const deactivated = await sdk("POST", `/${created.member_id}/invite`, {}, tenant);
    expect([deactivated.status, deactivated.body.error.code]).toEqual([409, "deactivated"]);
    // Adding a deactivated email again reactivates it (no account: invited again).
    const back = (await sdk("POST", "", { members: [{ email }], invite: "face", notify: false }, tenant)).body.data;
    expect(back.skipped).toEqual([]);
    expect(back.created[0]).toMatchObject({ member_id: created.member_id, reactivated: true, status: "link_sent", activation_link: expect.stringMatching(LINK) });

    const calls = [];
    for (let i = 0; i < 8; i++) calls.push(await sdk("POST", `/${created.member_id}/invite`, { notify: false }, tenant));
    // 2 calls above plus the 404 and the 409 count too: the 11th in the minute is refused.
    expect(calls.map((c) => c.status)).toEqual([200, 200, 200, 200, 200, 200, 429, 429]);
    expect(calls[6]!.body.error.code).toBe("rate_limited");
  });

  it("409 already_active for an active member", async () => {
    const signIn = await authorize({ cfg: prodConfig, redirectUri: PROD_REDIRECT, scope: "openid" });
    const tokens = await exchange(signIn, prodConfig);
    const bound = await sdk("POST", "/bind", { svcId: tokens.claims()!.sub, email: signIn.email });
    const res = await sdk("POST", `/${bound.body.data.member.member_id}/invite`, {});
    expect([res.status, res.body.error.code]).toEqual([409, "already_active"]);
  });
});

/** Signs in through the activation page's sign-in (email code); returns the account cookie and the page's CSRF token. */
async function signInAt(link: string, email: string) {
  const path = new URL(link).pathname;
  const b = { ip: randomIp() };
  const start = await get(`${op.url}/account/sign-in?return_to=${encodeURIComponent(path)}`, b);
  expect(start.status).toBe(303);
  const authorizeUrl = new URL(start.headers.get("location")!);
  const stateCookie = start.headers.get("set-cookie")!.split(";")[0]!;
  const toPage = await get(authorizeUrl.href, b);
  const page = toPage.headers.get("location")!;
  const browser = { ip: b.ip, cookie: toPage.headers.get("set-cookie")!.split(";")[0]!, page };
  const html = await (await get(page, browser)).text();
  expect(html).not.toContain(email); // no login hint: the link does not reveal the invited address
  // The account page's own sign-in asks no consent: the code goes straight back.
  const back = await get(await loginFirstParty({ ...browser, html }, email), { ip: b.ip, cookie: stateCookie });
  expect(back.status).toBe(303);
  expect(back.headers.get("location")).toBe(link);
  const accountCookie = back.headers.getSetCookie().find((c) => c.startsWith("svc_account="))!.split(";")[0]!;
  const activationHtml = await (await get(link, { ip: b.ip, cookie: accountCookie })).text();
  const csrf = activationHtml.match(/csrf\\?":\\?"([A-Za-z0-9_-]+)/)?.[1] ?? "";
  return { cookie: accountCookie, csrf, html: activationHtml, ip: b.ip };
}
const json = async (res: Response) => ({ status: res.status, body: (await res.json()) as any });
function scanner(link: string, session: { cookie: string; csrf: string; ip: string }) {
  const headers = { cookie: session.cookie, "x-forwarded-for": session.ip, "x-csrf-token": session.csrf, origin: op.url, "sec-fetch-site": "same-origin" };
  const challenge = async () => json(await fetch(`${link}/face/challenge`, { method: "POST", headers }));
  const burst = async (challengeId: string, frames: Buffer[]) =>
    json(await fetch(`${link}/face`, { method: "POST", headers, body: imageForm({ frames }, { challenge_id: challengeId }) }));
  return { challenge, burst };
}
const framesOf = (dir: string) => [1, 2, 3, 4, 5].map((i) => fixture("faces", dir, `${i}.jpg`));


describe("face activation (the hosted activation page)", { timeout: 180_000 }, () => {
  it("the invited person signs in with the invited email, a live face activates the seat: active, bound, enrolled, svc_org_member_id in the ID token", async () => {
    const email = newEmail();
    const created = (await sdk("POST", "", { members: [{ email, first_name: "Ada" }], invite: "face", notify: false })).body.data.created[0];
    const link = created.activation_link as string;
    const session = await signInAt(link, email);
    expect(text(session.html)).toContain(`Signed in as ${email}`);
    const scan = scanner(link, session);

    // Not live (a still of another person's frames out of order): refused, the member stays invited.
    const c1 = await scan.challenge();
    expect(c1.status).toBe(201);
    const refused = await scan.burst(c1.body.data.challenge_id, framesOf("b-still"));
    expect([refused.status, refused.body.error.code]).toEqual([403, "face_not_matched"]);
    expect(await statusOf(email)).toBe("link_sent");

    const c2 = await scan.challenge();
    const done = await scan.burst(c2.body.data.challenge_id, await underScreenLight(framesOf(PERFORMS[c2.body.data.actions.join()]!), c2.body.data.colours));
    expect(done.status).toBe(200);
    const member = done.body.data.member;
    expect(member).toMatchObject({ member_id: created.member_id, status: "active", active: true, svc_id: expect.any(String) });
    expect(await sql(shared().env, "SELECT kind FROM account_proofs WHERE account_id = $1", [member.svc_id])).toEqual([{ kind: "face" }]);
    // The link is used up.
    expect((await get(link, { ip })).status).toBe(404);
    expect((await scan.challenge()).body.error.code).toBe("invalid_activation");

    // Signing in to the organization's app: the ID token names the member.
    const tokens = await exchange(await authorize({ cfg: prodConfig, redirectUri: PROD_REDIRECT, email, scope: "openid" }), prodConfig);
    expect(tokens.claims()).toMatchObject({ sub: member.svc_id, svc_org_member_id: created.member_id });
  });

  it.skipIf(Boolean(chromiumMissing))("in Chromium with the camera: the emailed link, the code, a live face: the seat is active and billable; a dead link shows a friendly page", async () => {
    const email = newEmail();
    const billing = async () => (await api("GET", "/api/sdk/billing", { base: op.url, headers: { "X-Client-Id": t.clientId, "X-Client-Secret": t.clientSecret, "x-forwarded-for": ip } })).body.data;
    const seatsBefore = (await billing()).seats;
    const added = (await sdk("POST", "", { members: [{ email, first_name: "Grace" }], invite: "email" })).body.data.created[0];
    const link = await invitationLink(email);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "svc-activation-"));
    const browser = await launchChromium(await writeStillCamera(path.join(dir, "b-still.y4m")));
    try {
      const context = await browser.newContext({ permissions: ["camera"], extraHTTPHeaders: { "x-forwarded-for": randomIp() }, locale: "en-GB" });
      const page = await context.newPage();
      await personInFrontOfCamera(page, { performs: "as_asked" });
      await page.goto(link);
      await page.getByRole("link", { name: "Sign in to activate" }).click();
      await page.getByLabel("Email address").fill(email);
      await page.getByRole("button", { name: "Send code" }).click();
      await page.getByLabel("6-digit code").fill(await readCode(email));
      await page.getByRole("button", { name: "Sign in", exact: true }).click();
      await page.getByText(`Signed in as ${email}.`).waitFor();
      expect(page.url()).toBe(link);
      expect(await seriousViolations(page)).toEqual([]);
      await page.getByRole("button", { name: "Start the camera" }).click();
      await page.getByText(/is active\. You can close this page\./).waitFor({ timeout: 60_000 }).catch(async (err) => {
        console.error("activation surprise; the person did:", JSON.stringify(await personLog(page)), await page.getByTestId("face-scan").textContent());
        throw err;
      });
      await page.screenshot({ path: "test-artifacts/screenshots/face-activation.png", fullPage: true });
      const member = (await sdk("POST", "/resolve", { email })).body.data.member;
      expect(member).toMatchObject({ member_id: added.member_id, status: "active", active: true, svc_id: expect.any(String) });
      expect((await billing()).seats).toBe(seatsBefore + 1);
      const tokens = await exchange(await authorize({ cfg: prodConfig, redirectUri: PROD_REDIRECT, email, scope: "openid" }), prodConfig);
      expect(tokens.claims()).toMatchObject({ sub: member.svc_id, svc_org_member_id: added.member_id });

      // The used link now shows the friendly page (HTTP 404).
      const dead = await page.goto(link);
      expect(dead?.status()).toBe(404);
      await page.getByRole("heading", { name: "This activation link does not work" }).waitFor();
      await page.getByText("invalid_activation").waitFor();
    } finally {
      await browser.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it("signed in as another address: the page says so and the scan endpoints refuse; without the CSRF token or cookie they refuse too", async () => {
    const invited = newEmail();
    const link = (await sdk("POST", "", { members: [{ email: invited }], invite: "face", notify: false })).body.data.created[0].activation_link as string;
    const other = newEmail();
    const path = new URL(link).pathname;
    // Sign in as `other` through the same return path (the hint is only a hint).
    const b = { ip: randomIp() };
    const start = await get(`${op.url}/account/sign-in?return_to=${encodeURIComponent(path)}`, b);
    const stateCookie = start.headers.get("set-cookie")!.split(";")[0]!;
    const toPage = await get(start.headers.get("location")!, b);
    const page = toPage.headers.get("location")!;
    const browser = { ip: b.ip, cookie: toPage.headers.get("set-cookie")!.split(";")[0]!, page };
    const back = await get(await loginFirstParty({ ...browser, html: await (await get(page, browser)).text() }, other), { ip: b.ip, cookie: stateCookie });
    const cookie = back.headers.getSetCookie().find((c) => c.startsWith("svc_account="))!.split(";")[0]!;
    const html = await (await get(link, { ip: b.ip, cookie })).text();
    expect(text(html)).toMatch(new RegExp(`You are signed in as ${other.replace(/[.]/g, "\\.")} ?, but this invitation is for p`));
    const csrf = csrfOf(html);
    const wrong = await scanner(link, { cookie, csrf, ip: b.ip }).challenge();
    expect([wrong.status, wrong.body.error.code]).toEqual([403, "forbidden"]);
    const noCsrf = await scanner(link, { cookie, csrf: "", ip: b.ip }).challenge();
    expect(noCsrf.status).toBe(403);
    const noCookie = await scanner(link, { cookie: "", csrf, ip: b.ip }).challenge();
    expect([noCookie.status, noCookie.body.error.code]).toEqual([401, "requires_login"]);
    // A sign-in may only come back to an activation page.
    const elsewhere = await get(`${op.url}/account/sign-in?return_to=${encodeURIComponent("https://evil.example/")}`, b);
    expect(elsewhere.status).toBe(303);
    expect(await statusOf(invited)).toBe("link_sent");
  });
});

/** A member activated by face through the activation page (person A's live face is enrolled). */
async function activatedMember() {
  const email = newEmail();
  const created = (await sdk("POST", "", { members: [{ email }], invite: "face", notify: false })).body.data.created[0];
  const link = created.activation_link as string;
  const scan = scanner(link, await signInAt(link, email));
  const c = await scan.challenge();
  const done = await scan.burst(c.body.data.challenge_id, await underScreenLight(framesOf(PERFORMS[c.body.data.actions.join()]!), c.body.data.colours));
  expect(done.status).toBe(200);
  return { email, memberId: created.member_id as string, svcId: done.body.data.member.svc_id as string };
}

describe("account recovery (POST /api/sdk/recovery/session)", { timeout: 180_000 }, () => {
  const recovery = (json: unknown, tenant: Tenant = t) =>
    api("POST", "/api/sdk/recovery/session", { base: op.url, headers: { "X-Client-Id": tenant.clientId, "X-Client-Secret": tenant.clientSecret, "x-forwarded-for": ip }, json });
  const NOT_ELIGIBLE = { eligible: false, recoveryUrl: null, emailed: false, sessionId: null, status: null, expiresAt: null };
  const tokenOf = (url: string) => decodeURIComponent(new URL(url).hash.replace(/^#token=/, ""));
  const licence = (who: "a" | "b") => ({ front: fixture("documents", `licence-${who}-front.jpg`), back: fixture("documents", `licence-${who}-back.jpg`) });
  async function liveA(token: string) {
    const c = await api("POST", "/api/v2/antispoof/challenge", { base: op.url, headers: sessionBearer(token) });
    const { challenge_id, actions, colours } = c.body.data as { challenge_id: string; actions: string[]; colours: string[] };
    const frames = await underScreenLight(framesOf(PERFORMS[actions.join()]!), colours);
    return api("POST", "/api/v2/antispoof", { base: op.url, headers: sessionBearer(token), form: imageForm({ frames }, { challenge_id }) });
  }
  const finish = (token: string) => api("POST", "/api/v2/flow/finish", { base: op.url, headers: sessionBearer(token) });
  const decisionOf = async (id: string) => (await api("GET", `/api/v2/session/${id}/decision`, { base: op.url, headers: keyHeader(t) })).body.data;
  const eventOf = async (sessionId: string) =>
    eventually(async () => (await sql(shared().env, "SELECT type, payload FROM webhook_events WHERE session_id = $1", [sessionId])) as Array<{ type: string; payload: any }>, (rows) => rows.length > 0);

  beforeAll(async () => {
    await cli(["webhook:create", "--app", t.appId, "--url", "https://hooks.example/recovery", "--approve"], shared().env);
  });

  it("without_id and with_id: the enrolled person passes; the link is emailed; the webhook event and the decision agree", async () => {
    const a = await activatedMember();
    const started = await recovery({ svcId: a.svcId, variant: "without_id", redirectUrl: "https://rp.example/recovered", deliverEmail: false });
    expect(started.status).toBe(200);
    const answer = started.body.data;
    expect(answer).toEqual({ eligible: true, recoveryUrl: expect.stringMatching(/\/verify\/[0-9a-f-]{36}#token=/), emailed: true, sessionId: expect.any(String), status: "NOT_STARTED", expiresAt: expect.any(String) });
    // Always emailed to the address on file (deliverEmail is ignored).
    const mail = await provider().smtp.next(a.email, 60_000);
    expect(mail.raw.replace(/=\r?\n/g, "").replace(/=3D/g, "=")).toContain(answer.recoveryUrl);
    const token = tokenOf(answer.recoveryUrl);
    const burst = await liveA(token);
    expect(checkOf(burst, "face_match")).toMatchObject({ status: "passed", data: { reference: "enrolled_face" } });
    expect((await finish(token)).body.data.status).toBe("APPROVED");
    expect(await decisionOf(answer.sessionId)).toMatchObject({ status: "APPROVED", vendor_data: `recovery:${a.memberId}` });
    const [event] = await eventOf(answer.sessionId);
    expect(event).toMatchObject({ type: "verify.approved", payload: { type: "verify.approved", status: "APPROVED", session_id: answer.sessionId, decision: "approved" } });

    // with_id: a fresh document (its portrait must match too) and the enrolled face.
    const withId = (await recovery({ svcId: a.svcId })).body.data;
    expect(withId.eligible).toBe(true);
    const t2 = tokenOf(withId.recoveryUrl);
    const doc = await api("POST", "/api/v2/document", { base: op.url, headers: sessionBearer(t2), form: imageForm(licence("a"), { document_type: "driving_licence" }) });
    expect(checkOf(doc, "id_verification").status).toBe("passed");
    expect(checkOf(await liveA(t2), "face_match")).toMatchObject({ status: "passed", data: { reference: "enrolled_face", document_similarity: expect.any(Number) } });
    expect((await finish(t2)).body.data.status).toBe("APPROVED");
    expect((await eventOf(withId.sessionId))[0]!.type).toBe("verify.approved");
    // Nothing about the account changed: no proofs were added by recovery.
    expect(await sql(shared().env, "SELECT kind FROM account_proofs WHERE account_id = $1", [a.svcId])).toEqual([{ kind: "face" }]);
  });

  it("another face fails: someone else's document (with_id), or a live face that is not the enrolled one (without_id): DECLINED, verify.declined", async () => {
    const a = await activatedMember();
    const withId = (await recovery({ svcId: a.svcId, variant: "with_id" })).body.data;
    const tok = tokenOf(withId.recoveryUrl);
    await api("POST", "/api/v2/document", { base: op.url, headers: sessionBearer(tok), form: imageForm(licence("b"), { document_type: "driving_licence" }) });
    expect(checkOf(await liveA(tok), "face_match")).toMatchObject({ status: "failed", error: { code: "face_mismatch" } });
    expect((await finish(tok)).body.data.status).toBe("DECLINED");
    expect(await decisionOf(withId.sessionId)).toMatchObject({ status: "DECLINED" });
    expect((await eventOf(withId.sessionId))[0]).toMatchObject({ type: "verify.declined", payload: { status: "DECLINED", decision: "declined" } });

    // The enrolled face becomes B's (the portrait of B's licence): A's live face no longer recovers the account.
    const other = await createTenant();
    const wf = await createWorkflow(other, ["id_verification"]);
    const s = await createSession(other, { workflow_id: wf });
    await api("POST", "/api/v2/document", { headers: sessionBearer(s.session_token), form: imageForm(licence("b"), { document_type: "driving_licence" }) });
    const { loadJsonArtifact } = await import("@/lib/artifacts/artifacts");
    const { sealJson } = await import("@/lib/crypto/encryption");
    const portraitB = await loadJsonArtifact(s.session_id, "portrait_template");
    await sql(shared().env, "UPDATE account_proofs SET sealed = $2 WHERE account_id = $1 AND kind = 'face'", [a.svcId, Buffer.from(sealJson(portraitB))]);
    const without = (await recovery({ svcId: a.svcId, variant: "without_id" })).body.data;
    const t3 = tokenOf(without.recoveryUrl);
    expect(checkOf(await liveA(t3), "face_match")).toMatchObject({ status: "failed", data: { reference: "enrolled_face" } });
    expect((await finish(t3)).body.data.status).toBe("DECLINED");
    expect((await eventOf(without.sessionId))[0]!.type).toBe("verify.declined");
  });

  it("not eligible answers the same shape and starts nothing: unknown, unbound, deactivated, no enrolled face; bad input is 400; no webhook is 400; 5 per hour per person", async () => {
    const a = await activatedMember();
    const invited = (await sdk("POST", "", { members: [{ email: newEmail() }], notify: false })).body.data.created[0];
    const signIn = await authorize({ cfg: prodConfig, redirectUri: PROD_REDIRECT, scope: "openid" });
    const noFace = (await exchange(signIn, prodConfig)).claims()!.sub;
    const noFaceMember = (await sdk("POST", "/bind", { svcId: noFace, email: signIn.email })).body.data.member.member_id as string;
    const deactivated = await activatedMember();
    await sdk("PATCH", `/${deactivated.memberId}/deactivate`);
    const { ANSWER_FLOOR_MS } = await import("@/lib/org/recovery/start-recovery");
    for (const svcId of ["00000000-0000-4000-8000-000000000000", noFace, deactivated.svcId]) {
      const began = performance.now();
      const res = await recovery({ svcId, variant: "without_id" });
      expect(performance.now() - began).toBeGreaterThanOrEqual(ANSWER_FLOOR_MS - 5); // the floor every answer waits for
      expect([res.status, res.body.data]).toEqual([200, NOT_ELIGIBLE]);
      expect(Object.keys(res.body.data)).toEqual(["eligible", "recoveryUrl", "emailed", "sessionId", "status", "expiresAt"]);
    }
    expect(invited.svc_id).toBeNull();
    const logged = await sql(shared().env, "SELECT member_id, eligible, session_id FROM recovery_requests WHERE member_id = ANY($1) ORDER BY created_at", [[noFaceMember, deactivated.memberId]]);
    expect(logged).toHaveLength(2);
    expect(logged.every((r: { eligible: boolean; session_id: string | null }) => !r.eligible && r.session_id === null)).toBe(true);
    expect(await sql(shared().env, "SELECT count(*)::int AS n FROM sessions WHERE vendor_data = $1", [`recovery:${deactivated.memberId}`])).toEqual([{ n: 0 }]);

    for (const body of [{}, { svcId: "nope" }, { svcId: a.svcId, variant: "face_only" }, { svcId: a.svcId, redirectUrl: "http://rp.example/x" }, { svcId: a.svcId, extra: 1 }]) {
      const res = await recovery(body);
      expect([res.status, res.body.error.code]).toEqual([400, "invalid_request"]);
    }
    const noHook = await createTenant(shared().env, "production");
    const refused = await recovery({ svcId: a.svcId }, noHook);
    expect([refused.status, refused.body.error.code]).toEqual([400, "invalid_request"]);
    expect(refused.body.error.message).toMatch(/webhook/);

    // 5 per hour per (app, svcId), eligible or not: the 6th is refused for both alike.
    for (const svcId of [a.svcId, "00000000-0000-4000-8000-00000000abcd"]) {
      const statuses = [];
      for (let i = 0; i < 6; i++) statuses.push((await recovery({ svcId, variant: "without_id" })).status);
      expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
    }
  });
});
