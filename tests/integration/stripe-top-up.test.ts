import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api, createTenant, shared, type Tenant } from "../support/api";
import { cli, runCli } from "../support/cli";
import { sql } from "../support/database";
import { useServerDatabase } from "../support/domain";
import { portalCaller, signUpDeveloper, type PortalDeveloper } from "../support/portal";
import { startServer, type RunningServer } from "../support/server";
import { LocalStripe, signStripePayload } from "../support/stripe-server";

/**
 * Wallet top-up with Stripe Checkout (docs/billing.md "Wallet top-up (Stripe)"): the
 * real production server and the real Stripe SDK, pointed by STRIPE_API_BASE
 * at a local server speaking Stripe's REST API. Checkouts are created through
 * the admin CLI (`wallet:top-up-link`, the same domain function the portal
 * calls); Stripe's webhooks are delivered over HTTP, signed with the SDK.
 */
useServerDatabase(); // for getTopUp, the portal's read of one top-up

const WEBHOOK_SECRET = "whsec_local_test_secret";
const stripe = new LocalStripe();
let server: RunningServer;
let stripeEnv: Record<string, string>;

beforeAll(async () => {
  await stripe.start();
  stripeEnv = {
    ...shared().env,
    STRIPE_SECRET_KEY: stripe.secretKey,
    STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
    STRIPE_API_BASE: stripe.url,
  };
  server = await startServer(stripeEnv);
  // This process's domain layer (checkouts made in-process) talks to the same
  // Stripe and returns to this server. It reads its configuration once, at
  // first use: read it now, then take the settings out of process.env again,
  // so the servers and CLI processes this file starts get only what each test
  // gives them.
  const settings = { STRIPE_SECRET_KEY: stripe.secretKey, STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET, STRIPE_API_BASE: stripe.url, PUBLIC_BASE_URL: server.url };
  Object.assign(process.env, settings);
  (await import("@/lib/config/env")).env();
  for (const key of Object.keys(settings)) delete process.env[key];
});

afterAll(async () => {
  await server?.stop();
  await stripe.stop();
});

type Checkout = { top_up_id: string; checkout_session_id: string; url: string; amount: number; currency: string; expires_at: string | null };

/** The CLI's error object: the last line of its stderr (log lines may come before it). */
function cliError(stderr: string) {
  return JSON.parse(stderr.trim().split("\n").at(-1)!).error;
}

function topUpLink(t: Tenant, amount: string, extra: string[] = [], env = stripeEnv) {
  return runCli(["wallet:top-up-link", "--org", t.organizationId, "--amount", amount, ...extra], env);
}

async function checkout(t: Tenant, amount: string): Promise<Checkout> {
  return (await cli(["wallet:top-up-link", "--org", t.organizationId, "--amount", amount], stripeEnv)) as Checkout;
}

/**
 * A checkout made in this process by the function `wallet:top-up-link` and
 * the portal call (createTopUpCheckout), for the webhook tests: a CLI
 * process costs seconds.
 */
async function checkoutInProcess(t: Tenant, amount: string, options: { successUrl?: string; developerEmail?: string } = {}): Promise<Checkout> {
  const { createTopUpCheckout, defaultTopUpReturnUrls } = await import("@/lib/billing/create-top-up-checkout");
  const { parseAmountToCents } = await import("@/lib/billing/money");
  const c = await createTopUpCheckout(t.organizationId, parseAmountToCents(amount), { ...defaultTopUpReturnUrls(), ...options });
  return { top_up_id: c.topUpId, checkout_session_id: c.checkoutSessionId, url: c.url, amount: c.amountMinor / 100, currency: c.currency, expires_at: c.expiresAt?.toISOString() ?? null };
}

function deliver(event: object, options: { secret?: string; timestamp?: number; base?: string; signature?: string | null } = {}) {
  const payload = JSON.stringify(event);
  const signature = options.signature === undefined ? signStripePayload(payload, options.secret ?? WEBHOOK_SECRET, options.timestamp) : options.signature;
  return api("POST", "/api/stripe/webhook", {
    base: options.base ?? server.url,
    headers: { "content-type": "application/json", ...(signature === null ? {} : { "stripe-signature": signature }) },
    raw: payload,
  });
}

async function balance(t: Tenant): Promise<number> {
  const [row] = await sql(shared().env, `SELECT balance_cents FROM wallets WHERE organization_id = $1`, [t.organizationId]);
  return row.balance_cents;
}

async function topUpRows(t: Tenant) {
  return sql(
    shared().env,
    `SELECT l.id, l.kind, l.amount_cents, l.reference, l.balance_after_cents FROM ledger_entries l JOIN wallets w ON w.id = l.wallet_id
      WHERE w.organization_id = $1 AND l.kind = 'top_up' ORDER BY l.created_at`,
    [t.organizationId],
  );
}

async function topUp(id: string) {
  const [row] = await sql(shared().env, `SELECT status, amount_cents, stripe_checkout_session_id, ledger_entry_id, stripe_event_id, completed_at FROM top_ups WHERE id = $1`, [id]);
  return row;
}

describe("creating a top-up checkout", () => {
  it("creates a Stripe Checkout Session (payment, one USD line item, metadata) and a pending top-up", async () => {
    const t = await createTenant();
    const before = stripe.sessionRequests().length;
    const c = await checkout(t, "25.50");
    expect(c.amount).toBe(25.5);
    expect(c.currency).toBe("USD");
    expect(c.checkout_session_id).toMatch(/^cs_test_/);
    expect(c.url).toBe(`${stripe.url}/c/pay/${c.checkout_session_id}`);

    const sent = stripe.sessionRequests().slice(before);
    expect(sent).toHaveLength(1);
    const [request] = sent;
    expect(request!.headers.authorization).toBe(`Bearer ${stripe.secretKey}`);
    expect(request!.headers["idempotency-key"]).toBe(`top_up_${c.top_up_id}`);
    expect(request!.form).toMatchObject({
      mode: "payment",
      "line_items[0][quantity]": "1",
      "line_items[0][price_data][currency]": "usd",
      "line_items[0][price_data][unit_amount]": "2550",
      "line_items[0][price_data][product_data][name]": "Wallet top-up",
      "metadata[organization_id]": t.organizationId,
      "metadata[top_up_id]": c.top_up_id,
      "payment_intent_data[metadata][top_up_id]": c.top_up_id,
      client_reference_id: c.top_up_id,
      success_url: "http://localhost:3000/dashboard/wallet?top_up=success&session_id={CHECKOUT_SESSION_ID}",
      cancel_url: "http://localhost:3000/dashboard/wallet?top_up=cancelled",
    });
    expect(request!.form["line_items[1][quantity]"]).toBeUndefined();

    expect(await topUp(c.top_up_id)).toMatchObject({ status: "pending", amount_cents: 2550, stripe_checkout_session_id: c.checkout_session_id, ledger_entry_id: null });
    expect(await balance(t)).toBe(10000); // nothing credited before Stripe says it is paid
  });

  it("passes the caller's return pages and email to Stripe", async () => {
    const t = await createTenant();
    const r = await topUpLink(t, "10", ["--success-url", "https://portal.example/ok?s={CHECKOUT_SESSION_ID}", "--cancel-url", "https://portal.example/no", "--email", "dev@example.com"]);
    expect(r.code, r.stderr).toBe(0);
    const request = stripe.sessionRequests().at(-1)!;
    expect(request.form).toMatchObject({
      success_url: "https://portal.example/ok?s={CHECKOUT_SESSION_ID}",
      cancel_url: "https://portal.example/no",
      customer_email: "dev@example.com",
      "line_items[0][price_data][unit_amount]": "1000",
    });
  });

  it("refuses amounts outside 10 to 10,000 USD and bad return pages (invalid_request) without calling Stripe", async () => {
    const t = await createTenant();
    const before = stripe.requests.length;
    // Through the CLI: an amount out of bounds, one that is not an amount (a usage error), the lower edge.
    const low = await topUpLink(t, "9.99");
    expect(low.code).toBe(1);
    expect(cliError(low.stderr)).toMatchObject({ code: "invalid_request", details: { errors: { amountMinor: [expect.stringContaining("between 10 and 10000 USD")] } } });
    expect((await topUpLink(t, "ten")).code).toBe(2);
    expect((await topUpLink(t, "10")).code).toBe(0);
    // The same function, in this process: the other refusals and the upper edge.
    const refusal = (promise: Promise<unknown>) => promise.then(() => null, (err: { code?: string; data?: unknown }) => ({ code: err.code, details: err.data }));
    for (const amount of ["10000.01", "0.5"]) {
      expect(await refusal(checkoutInProcess(t, amount)), amount).toMatchObject({ code: "invalid_request", details: { errors: { amountMinor: [expect.stringContaining("between 10 and 10000 USD")] } } });
    }
    expect(await refusal(checkoutInProcess(t, "20", { successUrl: "/relative" }))).toMatchObject({ code: "invalid_request", details: { errors: { successUrl: [expect.any(String)] } } });
    expect((await refusal(checkoutInProcess(t, "20", { developerEmail: "not-an-email" })))?.code).toBe("invalid_request");
    expect(await refusal(checkoutInProcess(t, "10000"))).toBeNull();
    expect(stripe.requests.length - before).toBe(2);
    expect(await sql(shared().env, `SELECT amount_cents FROM top_ups WHERE organization_id = $1 ORDER BY amount_cents`, [t.organizationId])).toEqual([
      { amount_cents: 1000 },
      { amount_cents: 1000000 },
    ]);
  });

  it("an unknown organization is not_found", async () => {
    const r = await runCli(["wallet:top-up-link", "--org", randomUUID(), "--amount", "20"], stripeEnv);
    expect(r.code).toBe(1);
    expect(cliError(r.stderr).code).toBe("not_found");
  });

  it("Stripe refusing the request is payment_provider_error and the top-up is kept as failed", async () => {
    const t = await createTenant();
    stripe.failNext.push({ status: 400, type: "invalid_request_error", message: "This account cannot currently make live charges." });
    const r = await topUpLink(t, "20");
    expect(r.code).toBe(1);
    expect(cliError(r.stderr).code).toBe("payment_provider_error");
    const rows = await sql(shared().env, `SELECT status, stripe_checkout_session_id FROM top_ups WHERE organization_id = $1`, [t.organizationId]);
    expect(rows).toEqual([{ status: "failed", stripe_checkout_session_id: null }]);
  });

  it("a Stripe server error is retried by the SDK with the same Idempotency-Key: one session", async () => {
    const t = await createTenant();
    const before = stripe.sessionRequests().length;
    stripe.failNext.push({ status: 500, type: "api_error", message: "Something went wrong on Stripe's end." });
    const c = await checkout(t, "30");
    const sent = stripe.sessionRequests().slice(before);
    expect(sent).toHaveLength(2);
    expect(new Set(sent.map((r) => r.headers["idempotency-key"]))).toEqual(new Set([`top_up_${c.top_up_id}`]));
    expect((await topUp(c.top_up_id)).status).toBe("pending");
  });
});

describe("POST /api/portal/wallet/top-up (the portal's top-up)", () => {
  const PATH = "/api/portal/wallet/top-up";
  let dev: PortalDeveloper;
  let other: PortalDeveloper;
  beforeAll(async () => {
    [dev, other] = await Promise.all([signUpDeveloper(server.url), signUpDeveloper(server.url)]);
  });

  async function topUpsOf(organizationId: string) {
    return sql(shared().env, `SELECT organization_id, amount_cents, status, stripe_checkout_session_id FROM top_ups WHERE organization_id = $1 ORDER BY created_at`, [organizationId]);
  }

  it("answers the Checkout URL for the developer's own organization, returning to the wallet page on PUBLIC_BASE_URL", async () => {
    const before = stripe.sessionRequests().length;
    const res = await dev.call("POST", PATH, { json: { amount: 25 } });
    expect(res.status, res.text).toBe(201);
    expect(res.headers.get("x-request-id")).toMatch(/^req_/);
    expect(Object.keys(res.body.data)).toEqual(["url"]);
    const [request] = stripe.sessionRequests().slice(before);
    const sessionId = res.body.data.url.split("/").pop();
    expect(res.body.data.url).toBe(`${stripe.url}/c/pay/${sessionId}`);
    expect(request!.form).toMatchObject({
      mode: "payment",
      "line_items[0][price_data][unit_amount]": "2500",
      "metadata[organization_id]": dev.organizationId,
      customer_email: dev.email,
      // Built on the server from PUBLIC_BASE_URL (the test server's own address), never taken from the request.
      success_url: `${server.url}/dashboard/wallet?top_up=success&session_id={CHECKOUT_SESSION_ID}`,
      cancel_url: `${server.url}/dashboard/wallet?top_up=cancelled`,
    });
    expect(await topUpsOf(dev.organizationId)).toEqual([{ organization_id: dev.organizationId, amount_cents: 2500, status: "pending", stripe_checkout_session_id: sessionId }]);
    // Cents are kept exactly.
    const cents = await dev.call("POST", PATH, { json: { amount: 19.99 } });
    expect(cents.status).toBe(201);
    expect(stripe.sessionRequests().at(-1)!.form["line_items[0][price_data][unit_amount]"]).toBe("1999");
  });

  it("refuses a bad amount with 400 invalid_request and the amount's field errors, without calling Stripe", async () => {
    const before = stripe.requests.length;
    const cases: Array<[unknown, string]> = [
      [{ amount: 9.99 }, "A top-up is between 10 and 10000 USD"],
      [{ amount: 10000.01 }, "A top-up is between 10 and 10000 USD"],
      [{ amount: -25 }, "A top-up is between 10 and 10000 USD"],
      [{ amount: 25.555 }, "At most 2 decimals (cents)"],
      [{ amount: "25" }, "The amount must be a number of USD"],
      [{ amount: "" }, "The amount must be a number of USD"],
      [{}, "The amount must be a number of USD"],
    ];
    for (const [json, message] of cases) {
      const res = await other.call("POST", PATH, { json });
      expect(res.status, JSON.stringify(json)).toBe(400);
      expect(res.body.error.code).toBe("invalid_request");
      expect(res.body.data.errors, JSON.stringify(json)).toEqual({ amount: [message] });
    }
    const notJson = await other.call("POST", PATH, { headers: { "content-type": "application/json" } });
    expect(notJson.status).toBe(400);
    expect(stripe.requests.length).toBe(before);
    expect(await topUpsOf(other.organizationId)).toEqual([]);
  });

  it("cannot top up another organization: the organization and the return pages come from the session and the server only", async () => {
    const before = stripe.requests.length;
    for (const extra of [{ organization_id: dev.organizationId }, { organizationId: dev.organizationId }, { success_url: "https://evil.example/" }]) {
      const res = await other.call("POST", PATH, { json: { amount: 25, ...extra } });
      expect(res.status).toBe(400);
      expect(Object.values(res.body.data.errors)).toEqual([["Unknown field"]]);
    }
    expect(stripe.requests.length).toBe(before);
    // Paying the other developer's checkout credits their own organization, not the one whose top-up it is not.
    const own = await other.call("POST", PATH, { json: { amount: 30 } });
    const sessionId = own.body.data.url.split("/").pop();
    expect(stripe.sessions.get(sessionId)!.metadata.organization_id).toBe(other.organizationId);
    expect((await deliver(stripe.event("checkout.session.completed", sessionId))).body.data.outcome).toBe("credited");
    const [otherWallet] = await sql(shared().env, `SELECT balance_cents FROM wallets WHERE organization_id = $1`, [other.organizationId]);
    const [devWallet] = await sql(shared().env, `SELECT balance_cents FROM wallets WHERE organization_id = $1`, [dev.organizationId]);
    // This server sends no mail, so neither email is verified: no welcome credit, only the top-up.
    expect(otherWallet.balance_cents).toBe(3000);
    expect(devWallet.balance_cents).toBe(0);
  });

  it("refuses a cross-site request (403) and a request without a session (401)", async () => {
    const before = stripe.requests.length;
    const noOrigin = await api("POST", PATH, { base: server.url, headers: { cookie: dev.cookie }, json: { amount: 25 } });
    expect(noOrigin.status).toBe(403);
    expect(noOrigin.body.error.code).toBe("cross_site_request");
    const foreign = await api("POST", PATH, { base: server.url, headers: { cookie: dev.cookie, origin: "https://evil.example" }, json: { amount: 25 } });
    expect(foreign.status).toBe(403);
    const crossSite = await api("POST", PATH, { base: server.url, headers: { cookie: dev.cookie, "sec-fetch-site": "cross-site" }, json: { amount: 25 } });
    expect(crossSite.status).toBe(403);
    const anonymous = await api("POST", PATH, { base: server.url, headers: { origin: server.url }, json: { amount: 25 } });
    expect(anonymous.status).toBe(401);
    expect(anonymous.body.error.code).toBe("sign_in_required");
    expect(stripe.requests.length).toBe(before);
    // The browser's own same-origin request is accepted.
    const sameOrigin = await api("POST", PATH, { base: server.url, headers: { cookie: dev.cookie, "sec-fetch-site": "same-origin" }, json: { amount: 25 } });
    expect(sameOrigin.status).toBe(201);
  });

  it("Stripe refusing is 502 payment_provider_error; only POST is allowed", async () => {
    stripe.failNext.push({ status: 400, type: "invalid_request_error", message: "This account cannot currently make live charges." });
    const refused = await dev.call("POST", PATH, { json: { amount: 20 } });
    expect(refused.status).toBe(502);
    expect(refused.body.error.code).toBe("payment_provider_error");
    const get = await dev.call("GET", PATH);
    expect(get.status).toBe(405);
    expect(get.headers.get("allow")).toBe("POST, OPTIONS");
  });

  it("without the Stripe keys: 503 top_up_not_configured, a bad amount still 400", async () => {
    // The shared test server runs without STRIPE_* variables; the session cookie is valid there too (same database and key).
    const call = portalCaller(dev.cookie, shared().url);
    const before = await topUpsOf(dev.organizationId);
    const res = await call("POST", PATH, { json: { amount: 25 } });
    expect(res.status).toBe(503);
    expect(res.body).toMatchObject({ success: false, error: { code: "top_up_not_configured" } });
    const bad = await call("POST", PATH, { json: { amount: 5 } });
    expect(bad.status).toBe(400);
    expect(bad.body.data.errors.amount).toEqual(["A top-up is between 10 and 10000 USD"]);
    expect(await topUpsOf(dev.organizationId)).toEqual(before);
  });
});

describe("POST /api/stripe/webhook", () => {
  it("checkout.session.completed credits the wallet once, with a ledger row caused by the top-up, however often Stripe retries", async () => {
    const t = await createTenant();
    const c = await checkoutInProcess(t, "25");
    const event = stripe.event("checkout.session.completed", c.checkout_session_id);

    const first = await deliver(event);
    expect(first.status).toBe(200);
    expect(first.headers.get("x-request-id")).toMatch(/^req_/);
    expect(first.body).toEqual({ success: true, data: { received: true, event_id: event.id, type: event.type, outcome: "credited" } });
    const again = await deliver(event); // Stripe retries the same event
    expect(again.status).toBe(200);
    expect(again.body.data.outcome).toBe("already_credited");
    // A different event about the same paid session (e.g. async_payment_succeeded) is no second credit either.
    const other = await deliver(stripe.event("checkout.session.async_payment_succeeded", c.checkout_session_id));
    expect(other.body.data.outcome).toBe("already_credited");

    expect(await balance(t)).toBe(12500);
    const rows = await topUpRows(t);
    expect(rows).toEqual([{ id: expect.any(String), kind: "top_up", amount_cents: 2500, reference: `top_up:${c.top_up_id}`, balance_after_cents: 12500 }]);
    expect(await topUp(c.top_up_id)).toMatchObject({ status: "completed", ledger_entry_id: rows[0].id, stripe_event_id: event.id, completed_at: expect.any(Date) });

    const { getTopUp } = await import("@/lib/billing/top-ups");
    expect(await getTopUp(t.organizationId, c.top_up_id)).toMatchObject({
      id: c.top_up_id,
      status: "completed",
      amount: 25,
      amountMinor: 2500,
      currency: "USD",
      checkoutSessionId: c.checkout_session_id,
      completedAt: expect.any(Date),
    });
    const stranger = await createTenant();
    expect(await getTopUp(stranger.organizationId, c.top_up_id)).toBeNull(); // another organization's: as unknown
    expect(await getTopUp(t.organizationId, "not-an-id")).toBeNull();
  });

  it("two deliveries racing credit once", async () => {
    const t = await createTenant();
    const c = await checkoutInProcess(t, "40");
    const event = stripe.event("checkout.session.completed", c.checkout_session_id);
    const responses = await Promise.all(Array.from({ length: 6 }, () => deliver(event)));
    expect(responses.map((r) => r.status)).toEqual([200, 200, 200, 200, 200, 200]);
    const outcomes = responses.map((r) => r.body.data.outcome).sort();
    expect(outcomes).toEqual(["already_credited", "already_credited", "already_credited", "already_credited", "already_credited", "credited"]);
    expect(await balance(t)).toBe(14000);
    expect(await topUpRows(t)).toHaveLength(1);
  });

  it("a bad, missing or stale signature is 400 invalid_signature and credits nothing", async () => {
    const t = await createTenant();
    const c = await checkoutInProcess(t, "50");
    const event = stripe.event("checkout.session.completed", c.checkout_session_id);
    const wrongSecret = await deliver(event, { secret: "whsec_someone_else" });
    expect(wrongSecret.status).toBe(400);
    expect(wrongSecret.body).toMatchObject({ success: false, data: [], error: { code: "invalid_signature" } });
    const missing = await deliver(event, { signature: null });
    expect(missing.status).toBe(400);
    expect(missing.body.error).toEqual({ code: "invalid_signature", message: "Missing Stripe-Signature header" });
    const garbage = await deliver(event, { signature: "t=1,v1=nonsense" });
    expect(garbage.body.error.code).toBe("invalid_signature");
    // Signed correctly ten minutes ago: outside Stripe's 300 s tolerance (a replay).
    const stale = await deliver(event, { timestamp: Math.floor(Date.now() / 1000) - 600 });
    expect(stale.status).toBe(400);
    expect(stale.body.error.code).toBe("invalid_signature");
    // The body changed after signing.
    const payload = JSON.stringify(event);
    const tampered = await api("POST", "/api/stripe/webhook", {
      base: server.url,
      headers: { "stripe-signature": signStripePayload(payload, WEBHOOK_SECRET) },
      raw: payload.replace('"amount_total":5000', '"amount_total":500000'),
    });
    expect(tampered.status).toBe(400);
    expect(await balance(t)).toBe(10000);
    expect((await topUp(c.top_up_id)).status).toBe("pending");
    // The genuine delivery still works afterwards.
    expect((await deliver(event)).body.data.outcome).toBe("credited");
    expect(await balance(t)).toBe(15000);
  });

  it("unknown event types are acknowledged and ignored", async () => {
    const res = await deliver({ id: "evt_other", object: "event", type: "payment_intent.created", data: { object: { id: "pi_1", object: "payment_intent" } } });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ received: true, event_id: "evt_other", type: "payment_intent.created", outcome: "ignored", reason: "unhandled_event_type" });
  });

  it("a completed session for an unknown top-up is acknowledged, ignored and logged", async () => {
    const t = await createTenant();
    const c = await checkoutInProcess(t, "20");
    const unknownId = randomUUID();
    const event = stripe.event("checkout.session.completed", c.checkout_session_id, {
      metadata: { organization_id: t.organizationId, top_up_id: unknownId },
      client_reference_id: unknownId,
    });
    const res = await deliver(event);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ outcome: "ignored", reason: "unknown_top_up" });
    const logged = server.output().split("\n").find((line) => line.includes(event.id));
    expect(logged).toBeDefined();
    expect(JSON.parse(logged!)).toMatchObject({ level: "warn", message: "stripe checkout event ignored: unknown_top_up", topUpId: unknownId });
    // A session with no top-up id at all (another integration on the same Stripe account).
    const foreign = await deliver(stripe.event("checkout.session.completed", c.checkout_session_id, { metadata: {}, client_reference_id: null }));
    expect(foreign.body.data).toMatchObject({ outcome: "ignored", reason: "not_a_top_up" });
    expect(await balance(t)).toBe(10000);
  });

  it("a signed checkout event whose session cannot be read is acknowledged (200, ignored) and logged, not a 500 that Stripe retries for days", async () => {
    const t = await createTenant();
    const c = await checkoutInProcess(t, "20");
    const event = (changes: object = {}) => stripe.event("checkout.session.completed", c.checkout_session_id, changes);
    const metadata = (topUpId: unknown) => ({ metadata: { organization_id: t.organizationId, top_up_id: topUpId } as never });
    const { data: _dropped, ...withoutData } = event();
    const unreadable: Array<[string, object]> = [
      ["no data", withoutData],
      ["data.object null", { ...event(), data: { object: null } }],
      ["data.object not an object", { ...event(), data: { object: "cs_test_x" } }],
      ["metadata.top_up_id an object", event(metadata({ id: c.top_up_id }))],
      ["metadata.top_up_id holding a NUL", event(metadata(`${c.top_up_id}\u0000`))],
      ["amount_total a string", event({ amount_total: "2000" as never })],
    ];
    for (const [name, body] of unreadable) {
      const id = (body as { id: string }).id;
      const res = await deliver(body);
      expect(res.status, name).toBe(200);
      expect(res.body.data, name).toEqual({ received: true, event_id: id, type: "checkout.session.completed", outcome: "ignored", reason: "unreadable_session" });
      const logged = server.output().split("\n").find((line) => line.includes(id));
      expect(logged, name).toBeDefined();
      expect(JSON.parse(logged!), name).toMatchObject({ level: "warn", message: "stripe checkout event unreadable: ignored", eventId: id });
    }
    // A readable session naming a top-up id that is not ours is an unknown top-up, as before.
    expect((await deliver(event(metadata("not-a-top-up")))).body.data).toMatchObject({ outcome: "ignored", reason: "unknown_top_up" });
    expect(await balance(t)).toBe(10000);
    expect((await topUp(c.top_up_id)).status).toBe("pending");
    // The well-formed event still completes the top-up.
    expect((await deliver(event())).body.data.outcome).toBe("credited");
    expect(await balance(t)).toBe(12000);
  });

  it("a signed body that is not an event (no string id or type) is 400 invalid_request; an unknown type without data is ignored", async () => {
    for (const body of [{ object: "event" }, { id: 7, type: "checkout.session.completed", data: { object: {} } }, { id: "evt_nul\u0000", type: "checkout.session.completed" }, []]) {
      const res = await deliver(body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body).toMatchObject({ success: false, error: { code: "invalid_request", message: expect.stringContaining("not a Stripe event") } });
    }
    const other = await deliver({ id: "evt_nodata", object: "event", type: "customer.created" });
    expect(other.status).toBe(200);
    expect(other.body.data).toEqual({ received: true, event_id: "evt_nodata", type: "customer.created", outcome: "ignored", reason: "unhandled_event_type" });
  });

  it("a session that does not match its top-up (another organization, another session, another amount) credits nothing", async () => {
    const t = await createTenant();
    const other = await createTenant();
    const c = await checkoutInProcess(t, "20");
    const wrongOrg = stripe.event("checkout.session.completed", c.checkout_session_id, { metadata: { organization_id: other.organizationId, top_up_id: c.top_up_id } });
    expect((await deliver(wrongOrg)).body.data).toMatchObject({ outcome: "ignored", reason: "session_mismatch" });
    const d = await checkoutInProcess(t, "20");
    const wrongSession = stripe.event("checkout.session.completed", d.checkout_session_id, { metadata: { organization_id: t.organizationId, top_up_id: c.top_up_id } });
    expect((await deliver(wrongSession)).body.data).toMatchObject({ outcome: "ignored", reason: "session_mismatch" });
    const wrongAmount = stripe.event("checkout.session.completed", c.checkout_session_id, { amount_total: 200000 });
    expect((await deliver(wrongAmount)).body.data).toMatchObject({ outcome: "ignored", reason: "amount_mismatch" });
    expect(await balance(t)).toBe(10000);
    expect(await balance(other)).toBe(10000);
    expect((await topUp(c.top_up_id)).status).toBe("pending");
  });

  it("an unpaid completion waits for async_payment_succeeded; an expired session ends the top-up", async () => {
    const t = await createTenant();
    const c = await checkoutInProcess(t, "60");
    const unpaid = await deliver(stripe.event("checkout.session.completed", c.checkout_session_id, { payment_status: "unpaid" }));
    expect(unpaid.body.data).toMatchObject({ outcome: "ignored", reason: "awaiting_payment" });
    expect(await balance(t)).toBe(10000);
    const paid = await deliver(stripe.event("checkout.session.async_payment_succeeded", c.checkout_session_id));
    expect(paid.body.data.outcome).toBe("credited");
    expect(await balance(t)).toBe(16000);

    const e = await checkoutInProcess(t, "70");
    const expired = await deliver(stripe.event("checkout.session.expired", e.checkout_session_id));
    expect(expired.body.data.outcome).toBe("recorded");
    expect((await topUp(e.top_up_id)).status).toBe("expired");
    // An expiry after the credit changes nothing.
    const late = await deliver(stripe.event("checkout.session.expired", c.checkout_session_id));
    expect(late.body.data).toMatchObject({ outcome: "ignored", reason: "not_pending" });
    expect((await topUp(c.top_up_id)).status).toBe("completed");
    expect(await balance(t)).toBe(16000);
  });

  it("only POST: other methods are 405 in the envelope", async () => {
    const res = await api("GET", "/api/stripe/webhook", { base: server.url });
    expect(res.status).toBe(405);
    expect(res.body.error.code).toBe("method_not_allowed");
  });
});

describe("without Stripe configuration", () => {
  it("the webhook answers 503 top_up_not_configured and the checkout is refused the same way", async () => {
    // The shared test server runs without STRIPE_* variables.
    const res = await deliver({ id: "evt_x", object: "event", type: "checkout.session.completed", data: { object: {} } }, { base: shared().url });
    expect(res.status).toBe(503);
    expect(res.body).toMatchObject({ success: false, data: [], error: { code: "top_up_not_configured" } });
    expect(res.headers.get("x-request-id")).toMatch(/^req_/);
    // An unsigned request is malformed whatever the configuration.
    const unsigned = await deliver({ id: "evt_y" }, { base: shared().url, signature: null });
    expect(unsigned.status).toBe(400);
    expect(unsigned.body.error.code).toBe("invalid_signature");

    const t = await createTenant();
    const before = stripe.requests.length;
    const r = await topUpLink(t, "20", [], shared().env);
    expect(r.code).toBe(1);
    expect(cliError(r.stderr).code).toBe("top_up_not_configured");
    expect(stripe.requests.length).toBe(before);
  });

  it("one Stripe key without the other stops the server at start-up, naming the variable", async () => {
    const started = startServer({ ...shared().env, STRIPE_SECRET_KEY: stripe.secretKey });
    // A server that starts after all must not outlive the test.
    void started.then((s) => s.stop(), () => {});
    await expect(started).rejects.toThrow(/STRIPE_WEBHOOK_SECRET: wallet top-up needs both/);
  });
});
