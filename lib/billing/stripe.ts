import Stripe from "stripe";
import { now } from "@/lib/clock";
import { env } from "@/lib/config/env";
import { ApiError } from "@/lib/http/api-error";
import { processSlot } from "@/lib/process-slots";

/**
 * The adapter around the `stripe` SDK: the one place that reads the Stripe
 * configuration, builds the client and verifies webhook signatures. Top-up
 * is configured when both STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET are set
 * (the configuration refuses one without the other); STRIPE_API_BASE points
 * the SDK at another origin (tests: a local server speaking Stripe's API).
 */
export type StripeSettings = { secretKey: string; webhookSecret: string; apiBase?: string };

function stripeSettings(): StripeSettings | null {
  const { STRIPE_SECRET_KEY, STRIPE_WEBHOOK_SECRET, STRIPE_API_BASE } = env();
  if (!STRIPE_SECRET_KEY || !STRIPE_WEBHOOK_SECRET) return null;
  return { secretKey: STRIPE_SECRET_KEY, webhookSecret: STRIPE_WEBHOOK_SECRET, apiBase: STRIPE_API_BASE };
}

/** Whether this server can take wallet top-ups (the portal shows "not configured" otherwise). */
export function isTopUpConfigured(): boolean {
  return stripeSettings() !== null;
}

/** The settings, or 503 `top_up_not_configured`. */
export function requireStripeSettings(): StripeSettings {
  const settings = stripeSettings();
  if (!settings) throw new ApiError("top_up_not_configured");
  return settings;
}

/** STRIPE_API_BASE as the SDK's `protocol`/`host`/`port` options. */
export function stripeAddress(apiBase: string | undefined): Pick<Stripe.StripeConfig, "protocol" | "host" | "port"> {
  if (!apiBase) return {};
  const url = new URL(apiBase);
  const protocol = url.protocol === "http:" ? "http" : "https";
  // node:http takes an IPv6 address without its URL brackets.
  const host = url.hostname.replace(/^\[(.*)\]$/, "$1");
  return { protocol, host, port: url.port ? Number(url.port) : protocol === "http" ? 80 : 443 };
}

const stripeSlot = processSlot<{ key: string; client: Stripe }>("stripe");

/** The SDK client for the configured key (one per process). */
export function stripeClient(settings: StripeSettings = requireStripeSettings()): Stripe {
  const key = `${settings.secretKey}|${settings.apiBase ?? ""}`;
  if (stripeSlot.value?.key !== key) {
    const client = new Stripe(settings.secretKey, {
      ...stripeAddress(settings.apiBase),
      // The SDK retries network failures with an Idempotency-Key of its own;
      // creating a Checkout Session also sends ours (create-top-up-checkout.ts).
      maxNetworkRetries: 2,
      timeout: 20_000,
      telemetry: false,
      appInfo: { name: "svc-identity" },
    });
    stripeSlot.value = { key, client };
  }
  return stripeSlot.value.client;
}

/**
 * A webhook request's event, verified with the SDK's `constructEvent`
 * against STRIPE_WEBHOOK_SECRET (HMAC of the raw body, timestamp within
 * Stripe's default 300 s tolerance of the clock): 400 `invalid_signature`
 * when the header is missing, malformed, signed with another secret, or too
 * old; 503 `top_up_not_configured` for a signed delivery without the keys.
 */
export function verifyStripeEvent(rawBody: string, signatureHeader: string | null): Stripe.Event {
  // Unsigned is malformed whatever the configuration; a signed delivery to a
  // server without the keys is 503, which Stripe retries for days.
  if (!signatureHeader) {
    throw new ApiError("invalid_signature", { message: "Missing Stripe-Signature header" });
  }
  const { webhookSecret } = requireStripeSettings();
  try {
    // In milliseconds: the SDK divides by 1000 before comparing with the header's timestamp.
    const receivedAt = now().getTime();
    return Stripe.webhooks.constructEvent(rawBody, signatureHeader, webhookSecret, undefined, undefined, receivedAt);
  } catch (err) {
    if (err instanceof Stripe.errors.StripeSignatureVerificationError) {
      const reason = err.message.split(/(?<=\.)\s/)[0];
      throw new ApiError("invalid_signature", { message: `Stripe webhook signature verification failed: ${reason}` });
    }
    // A verified body that is not JSON (constructEvent parses after verifying).
    if (err instanceof SyntaxError) throw new ApiError("invalid_request", { message: "The webhook body is not JSON" });
    throw err;
  }
}

/** Turns an SDK error from an API call into 502 `payment_provider_error` (anything else is rethrown). */
export function providerError(err: unknown): unknown {
  if (err instanceof Stripe.errors.StripeError) {
    return new ApiError("payment_provider_error", {
      message: `Stripe refused or did not answer the request (${err.type}${err.statusCode ? ` ${err.statusCode}` : ""}); try again`,
    });
  }
  return err;
}
