import { describe, expect, it } from "vitest";
import { stripeAddress } from "@/lib/billing/stripe";
import { TOP_UP_MAX_CENTS, TOP_UP_MIN_CENTS, TopUpAmountMinor, TopUpAmountUsd, TopUpRequestBody } from "@/lib/billing/top-up-amount";
import { parseEnv } from "@/lib/config/env";

describe("top-up amount (minor units)", () => {
  it("accepts whole cents from 10 to 10,000 USD, bounds included", () => {
    expect(TOP_UP_MIN_CENTS).toBe(1000);
    expect(TOP_UP_MAX_CENTS).toBe(1_000_000);
    for (const cents of [1000, 1001, 2550, 999_999, 1_000_000]) {
      expect(TopUpAmountMinor.parse(cents)).toBe(cents);
    }
  });

  it("refuses amounts outside the bounds, fractions of a cent and non-numbers, saying why", () => {
    const message = (value: unknown) => TopUpAmountMinor.safeParse(value).error?.issues[0]?.message;
    expect(message(999)).toBe("A top-up is between 10 and 10000 USD");
    expect(message(1_000_001)).toBe("A top-up is between 10 and 10000 USD");
    expect(message(0)).toBe("A top-up is between 10 and 10000 USD");
    expect(message(-2500)).toBe("A top-up is between 10 and 10000 USD");
    expect(message(2550.5)).toBe("The amount must be a whole number of cents");
    expect(message(Number.NaN)).toBeDefined();
    expect(message(Number.POSITIVE_INFINITY)).toBeDefined();
    expect(message("2500")).toBe("The amount must be a number of cents");
    expect(message(null)).toBe("The amount must be a number of cents");
  });
});

describe("top-up amount (USD, as people type it)", () => {
  it("turns USD with up to 2 decimals into cents, without floating-point drift", () => {
    expect(TopUpAmountUsd.parse(25)).toBe(2500);
    expect(TopUpAmountUsd.parse(25.5)).toBe(2550);
    expect(TopUpAmountUsd.parse(19.99)).toBe(1999);
    expect(TopUpAmountUsd.parse(10)).toBe(1000);
    expect(TopUpAmountUsd.parse(10000)).toBe(1_000_000);
    expect(TopUpAmountUsd.parse(1234.56)).toBe(123_456);
  });

  it("refuses more than 2 decimals and amounts outside the bounds", () => {
    expect(TopUpAmountUsd.safeParse(25.555).error?.issues[0]?.message).toBe("At most 2 decimals (cents)");
    expect(TopUpAmountUsd.safeParse(9.99).error?.issues[0]?.message).toBe("A top-up is between 10 and 10000 USD");
    expect(TopUpAmountUsd.safeParse(10000.01).error?.issues[0]?.message).toBe("A top-up is between 10 and 10000 USD");
    expect(TopUpAmountUsd.safeParse(Number.NaN).success).toBe(false);
    expect(TopUpAmountUsd.safeParse("25").success).toBe(false);
  });

  it("a request body is exactly { amount }", () => {
    expect(TopUpRequestBody.parse({ amount: 42 })).toEqual({ amount: 4200 });
    expect(TopUpRequestBody.safeParse({}).success).toBe(false);
    expect(TopUpRequestBody.safeParse({ amount: 42, currency: "EUR" }).success).toBe(false);
  });
});

describe("Stripe configuration", () => {
  it("both keys or neither", () => {
    expect(parseEnv({}).STRIPE_SECRET_KEY).toBeUndefined();
    const both = parseEnv({ STRIPE_SECRET_KEY: "sk_test_abc", STRIPE_WEBHOOK_SECRET: "whsec_abc" });
    expect([both.STRIPE_SECRET_KEY, both.STRIPE_WEBHOOK_SECRET]).toEqual(["sk_test_abc", "whsec_abc"]);
    expect(() => parseEnv({ STRIPE_SECRET_KEY: "sk_test_abc" })).toThrow(/STRIPE_WEBHOOK_SECRET: wallet top-up needs both/);
    expect(() => parseEnv({ STRIPE_WEBHOOK_SECRET: "whsec_abc" })).toThrow(/STRIPE_SECRET_KEY: wallet top-up needs both/);
    expect(parseEnv({ STRIPE_SECRET_KEY: " ", STRIPE_WEBHOOK_SECRET: "" }).STRIPE_SECRET_KEY).toBeUndefined();
  });

  it("refuses a publishable key or a webhook secret of the wrong kind", () => {
    expect(() => parseEnv({ STRIPE_SECRET_KEY: "pk_test_abc", STRIPE_WEBHOOK_SECRET: "whsec_abc" })).toThrow(/STRIPE_SECRET_KEY/);
    expect(() => parseEnv({ STRIPE_SECRET_KEY: "sk_live_abc", STRIPE_WEBHOOK_SECRET: "sk_live_abc" })).toThrow(/STRIPE_WEBHOOK_SECRET/);
    expect(parseEnv({ STRIPE_SECRET_KEY: "rk_live_abc", STRIPE_WEBHOOK_SECRET: "whsec_abc" }).STRIPE_SECRET_KEY).toBe("rk_live_abc");
  });

  it("STRIPE_API_BASE is an http(s) origin, mapped onto the SDK's protocol, host and port", () => {
    expect(parseEnv({ STRIPE_API_BASE: "http://127.0.0.1:12111" }).STRIPE_API_BASE).toBe("http://127.0.0.1:12111");
    expect(() => parseEnv({ STRIPE_API_BASE: "http://127.0.0.1:12111/v1" })).toThrow(/STRIPE_API_BASE: must be an origin only/);
    expect(() => parseEnv({ STRIPE_API_BASE: "ftp://stripe.example" })).toThrow(/STRIPE_API_BASE/);
    expect(() => parseEnv({ STRIPE_API_BASE: "not a url" })).toThrow(/STRIPE_API_BASE/);

    expect(stripeAddress(undefined)).toEqual({});
    expect(stripeAddress("http://127.0.0.1:12111")).toEqual({ protocol: "http", host: "127.0.0.1", port: 12111 });
    expect(stripeAddress("https://stripe-proxy.internal")).toEqual({ protocol: "https", host: "stripe-proxy.internal", port: 443 });
    expect(stripeAddress("http://[::1]:8080")).toEqual({ protocol: "http", host: "::1", port: 8080 });
  });
});
