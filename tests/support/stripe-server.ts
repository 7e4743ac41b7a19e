import { randomBytes } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import Stripe from "stripe";

/**
 * A local HTTP server speaking the part of Stripe's REST API the wallet
 * top-up uses, so the real SDK (pointed here by STRIPE_API_BASE) talks to it
 * as to api.stripe.com:
 * - `POST /v1/checkout/sessions`, form-encoded as the SDK sends it
 *   (`line_items[0][price_data][unit_amount]=2500`, `metadata[top_up_id]=...`),
 *   answers a Checkout Session object (id, url, metadata, amount_total,
 *   currency, payment_status...);
 * - `Authorization: Bearer <secret key>` is required (401 otherwise, in
 *   Stripe's error shape);
 * - `Idempotency-Key`: a repeated key answers the first response again, as
 *   Stripe does;
 * - `failNext` answers the next requests with a Stripe error instead;
 * - `GET /c/pay/<session id>` (a session's `url`) is a bare Checkout page for
 *   a browser, with "Pay" and "Cancel" links to the session's return pages.
 * Every request is recorded with its decoded form fields.
 * It also builds the events Stripe would send about a session, and signs
 * webhook bodies with the SDK's `webhooks.generateTestHeaderString`.
 */
export type StripeRequest = {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  /** The form fields as sent, keys in Stripe's bracket notation. */
  form: Record<string, string>;
};

export type CheckoutSessionObject = {
  id: string;
  object: "checkout.session";
  mode: string;
  status: "open" | "complete" | "expired";
  payment_status: "unpaid" | "paid" | "no_payment_required";
  amount_subtotal: number;
  amount_total: number;
  currency: string;
  metadata: Record<string, string>;
  client_reference_id: string | null;
  customer_email: string | null;
  success_url: string;
  cancel_url: string | null;
  url: string | null;
  payment_intent: string | null;
  created: number;
  expires_at: number;
  livemode: false;
};

type StripeFailure = { status: number; type: string; message: string; code?: string };

function stripeId(prefix: string): string {
  return `${prefix}_${randomBytes(12).toString("hex")}`;
}

export class LocalStripe {
  readonly requests: StripeRequest[] = [];
  readonly sessions = new Map<string, CheckoutSessionObject>();
  /** Stripe errors to answer, one per request, before serving normally again. */
  failNext: StripeFailure[] = [];
  private idempotent = new Map<string, { status: number; body: string }>();
  private server: http.Server | null = null;
  port = 0;

  constructor(readonly secretKey = "sk_test_local_stripe") {}

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  async start(): Promise<this> {
    this.server = http.createServer((req, res) => {
      let body = "";
      req.setEncoding("utf8");
      req.on("data", (c: string) => (body += c));
      req.on("end", () => {
        const path = new URL(req.url ?? "/", this.url).pathname;
        const form = Object.fromEntries(new URLSearchParams(body));
        this.requests.push({ method: req.method ?? "", path, headers: req.headers, form });
        const answer = this.answer(req, path, form);
        res.writeHead(answer.status, { "content-type": "application/json", "request-id": stripeId("req"), ...answer.headers });
        res.end(answer.body);
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, "127.0.0.1", resolve));
    this.port = (this.server.address() as AddressInfo).port;
    return this;
  }

  async stop(): Promise<void> {
    const server = this.server;
    this.server = null;
    if (!server) return;
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    server.closeAllConnections();
    await closed;
  }

  /** The recorded requests that created Checkout Sessions. */
  sessionRequests(): StripeRequest[] {
    return this.requests.filter((r) => r.method === "POST" && r.path === "/v1/checkout/sessions");
  }

  private error(failure: StripeFailure) {
    const { status, ...error } = failure;
    return { status, headers: {}, body: JSON.stringify({ error }) };
  }

  private answer(req: http.IncomingMessage, path: string, form: Record<string, string>): { status: number; headers: Record<string, string>; body: string } {
    const page = path.match(/^\/c\/pay\/([^/]+)$/);
    if (req.method === "GET" && page) return this.checkoutPage(page[1]!);
    if (req.headers.authorization !== `Bearer ${this.secretKey}`) {
      return this.error({ status: 401, type: "invalid_request_error", message: "Invalid API Key provided" });
    }
    const failure = this.failNext.shift();
    if (failure) return this.error(failure);
    if (req.method === "POST" && path === "/v1/checkout/sessions") {
      const key = req.headers["idempotency-key"];
      const replay = typeof key === "string" ? this.idempotent.get(key) : undefined;
      if (replay) return { ...replay, headers: { "idempotent-replayed": "true" } };
      const created = this.createSession(form);
      if (typeof key === "string") this.idempotent.set(key, created);
      return { ...created, headers: {} };
    }
    const session = path.match(/^\/v1\/checkout\/sessions\/([^/]+)$/);
    if (req.method === "GET" && session && this.sessions.has(session[1]!)) {
      return { status: 200, headers: {}, body: JSON.stringify(this.sessions.get(session[1]!)) };
    }
    return this.error({ status: 404, type: "invalid_request_error", message: `Unrecognized request URL (${req.method}: ${path})` });
  }

  /**
   * The Checkout page a session's `url` opens in a browser (no API key: it is
   * the developer's browser): the amount and two links, "Pay" to the
   * session's `success_url` with `{CHECKOUT_SESSION_ID}` replaced by its id,
   * as Stripe does, and "Cancel" to its `cancel_url`. Paying here changes
   * nothing: as with Stripe, only the webhook says a session was paid.
   */
  private checkoutPage(id: string): { status: number; headers: Record<string, string>; body: string } {
    const session = this.sessions.get(id);
    if (!session || session.status !== "open") {
      return { status: 404, headers: { "content-type": "text/html; charset=utf-8" }, body: "<!doctype html><title>Not found</title><p>No such Checkout Session.</p>" };
    }
    const attr = (value: string) => value.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;");
    const success = session.success_url.replaceAll("{CHECKOUT_SESSION_ID}", encodeURIComponent(id));
    const amount = `${(session.amount_total / 100).toFixed(2)} ${session.currency.toUpperCase()}`;
    const body = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Local Stripe Checkout</title></head><body>
<main><h1>Pay ${attr(amount)}</h1><p><a href="${attr(success)}">Pay</a></p>${session.cancel_url ? `<p><a href="${attr(session.cancel_url)}">Cancel</a></p>` : ""}</main></body></html>`;
    return { status: 200, headers: { "content-type": "text/html; charset=utf-8" }, body };
  }

  private createSession(form: Record<string, string>): { status: number; body: string } {
    if (!form.mode) return this.error({ status: 400, type: "invalid_request_error", code: "parameter_missing", message: "Missing required param: mode." });
    const currency = form["line_items[0][price_data][currency]"];
    let amount = 0;
    for (let i = 0; form[`line_items[${i}][quantity]`] !== undefined; i++) {
      amount += Number(form[`line_items[${i}][price_data][unit_amount]`]) * Number(form[`line_items[${i}][quantity]`]);
    }
    const metadata: Record<string, string> = {};
    for (const [k, v] of Object.entries(form)) {
      const m = k.match(/^metadata\[([^\]]+)\]$/);
      if (m) metadata[m[1]!] = v;
    }
    const id = stripeId("cs_test");
    const created = Math.floor(Date.now() / 1000);
    const session: CheckoutSessionObject = {
      id,
      object: "checkout.session",
      mode: form.mode,
      status: "open",
      payment_status: "unpaid",
      amount_subtotal: amount,
      amount_total: amount,
      currency: currency ?? "usd",
      metadata,
      client_reference_id: form.client_reference_id ?? null,
      customer_email: form.customer_email ?? null,
      success_url: form.success_url ?? "",
      cancel_url: form.cancel_url ?? null,
      url: `${this.url}/c/pay/${id}`,
      payment_intent: null,
      created,
      expires_at: created + 24 * 3600,
      livemode: false,
    };
    this.sessions.set(id, session);
    return { status: 200, body: JSON.stringify(session) };
  }

  /**
   * The event Stripe sends about one of its sessions: `checkout.session.completed`
   * is the session paid (`status: complete`, `payment_status: paid`) unless
   * `changes` says otherwise.
   */
  event(type: string, sessionId: string, changes: Partial<CheckoutSessionObject> = {}) {
    const session = this.sessions.get(sessionId);
    if (!session) throw new Error(`no session ${sessionId}`);
    const paid = type === "checkout.session.completed" || type === "checkout.session.async_payment_succeeded";
    const expired = type === "checkout.session.expired";
    const object = {
      ...session,
      ...(paid ? { status: "complete", payment_status: "paid", payment_intent: stripeId("pi") } : {}),
      ...(expired ? { status: "expired", url: null } : {}),
      ...changes,
    };
    return {
      id: stripeId("evt"),
      object: "event",
      api_version: Stripe.API_VERSION,
      created: Math.floor(Date.now() / 1000),
      livemode: false,
      pending_webhooks: 1,
      request: { id: null, idempotency_key: null },
      type,
      data: { object },
    };
  }
}

/** A `Stripe-Signature` header for `payload`, made by the SDK as Stripe signs its webhooks. */
export function signStripePayload(payload: string, secret: string, timestamp?: number): string {
  return Stripe.webhooks.generateTestHeaderString({ payload, secret, timestamp });
}
