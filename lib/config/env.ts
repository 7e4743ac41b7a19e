import "server-only";
import path from "node:path";
import proxyaddr from "proxy-addr";
import { z } from "zod";
import { FEATURES, LIVENESS_ACTIONS } from "@/lib/contract-vocabulary";
import { parseNetworkList } from "@/lib/net/safe-address";
import { decodeKeyText, keyIdOf, splitKeyList } from "@/lib/config/key-format";
import { processSlot } from "@/lib/process-slots";

/** A comma-separated list of two or more liveness actions (FACE_SIGN_IN_ACTIONS). */
const ACTION_LIST = new RegExp(`^\\s*(${LIVENESS_ACTIONS.join("|")})(\\s*,\\s*(${LIVENESS_ACTIONS.join("|")}))+\\s*$`);

/**
 * Configuration from the environment, validated once. Every variable is
 * documented in docs/configuration.md and `.env.example`.
 */
const booleanFlag = z
  .enum(["1", "0", "true", "false", "yes", "no", ""])
  .optional()
  .transform((v) => v === "1" || v === "true" || v === "yes");

/**
 * TRUST_PROXY: unset/0/false = no proxy; 1/true = one proxy; N = N proxies
 * in front; otherwise the proxies' addresses or CIDRs, comma separated
 * (lib/http/client-ip.ts).
 */
const proxyTrust = z
  .string()
  .optional()
  .transform((v, ctx): number | string | null => {
    const text = (v ?? "").trim().toLowerCase();
    if (["", "0", "false", "no", "off"].includes(text)) return null;
    if (["true", "yes", "on"].includes(text)) return 1;
    if (/^\d+$/.test(text)) return Number(text);
    try {
      proxyaddr.compile(text.split(",").map((s) => s.trim()).filter(Boolean));
    } catch (err) {
      ctx.addIssue({ code: "custom", message: `a number of proxies, or their addresses/CIDRs: ${(err as Error).message}` });
      return z.NEVER;
    }
    return text;
  });

/** CHECK_PRICES: JSON object of feature -> USD price; a partial list overrides only the prices it names. */
const checkPrices = z
  .string()
  .optional()
  .transform((v, ctx) => {
    if (v === undefined || v.trim() === "") return {};
    let parsed: unknown;
    try {
      parsed = JSON.parse(v);
    } catch {
      ctx.addIssue({ code: "custom", message: 'must be a JSON object, e.g. {"liveness":0.2}' });
      return z.NEVER;
    }
    const result = z
      .partialRecord(z.enum(FEATURES), z.number().min(0).max(1000).multipleOf(0.01, "at most 2 decimals (cents)"))
      .safeParse(parsed);
    if (!result.success) {
      for (const issue of result.error.issues) {
        ctx.addIssue({ code: "custom", message: `${issue.path.join(".") || "value"}: ${issue.message} (features: ${FEATURES.join(", ")})` });
      }
      return z.NEVER;
    }
    return result.data;
  });

const optionalString = z
  .string()
  .optional()
  .transform((v) => (v === undefined || v.trim() === "" ? undefined : v.trim()));

/**
 * STRIPE_API_BASE: where the Stripe SDK sends API requests (default Stripe's
 * own https://api.stripe.com). An origin only: the SDK takes a protocol, host
 * and port (lib/billing/stripe.ts), never a path. Tests point it at a local
 * server speaking Stripe's REST API.
 */
const stripeApiBase = optionalString.pipe(
  z
    .url({ protocol: /^https?$/, error: "must be an http:// or https:// URL" })
    .refine((v) => {
      if (!URL.canParse(v)) return true; // reported by z.url above
      const url = new URL(v);
      return (url.pathname === "/" || url.pathname === "") && !url.search && !url.hash && !url.username && !url.password;
    }, "must be an origin only (scheme, host and optional port), e.g. http://127.0.0.1:12111")
    .optional(),
);

const EnvSchema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  PORT: z.coerce.number().int().min(1).max(65535).default(3000),
  /** How long requests in flight may finish after SIGTERM (server.mjs reads it; validated here). */
  SHUTDOWN_GRACE_MS: z.coerce.number().int().min(0).max(3_600_000).default(25_000),
  PUBLIC_BASE_URL: optionalString.pipe(z.url().optional()),
  DATABASE_URL: optionalString.pipe(
    z
      .string()
      .regex(/^postgres(ql)?:\/\//, "must be a postgres:// or postgresql:// URL")
      .optional(),
  ),
  DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(100).default(10),
  DATA_DIR: optionalString,
  REDIS_URL: optionalString.pipe(
    z.string().regex(/^rediss?:\/\//, "must be a redis:// or rediss:// URL").optional(),
  ),
  REDIS_KEY_PREFIX: z.string().default("svc:"),
  ENCRYPTION_KEY: optionalString.refine(
    (v) => v === undefined || decodeKeyText(v) !== null,
    "must be 32 bytes, as 64 hex characters or base64 (generate one with: openssl rand -hex 32)",
  ),
  /** Older keys that still open sealed values (never seal), comma separated, newest first (docs/operations.md "Rotating the encryption key"). */
  ENCRYPTION_KEY_PREVIOUS: optionalString.superRefine((v, ctx) => {
    const bad = splitKeyList(v).filter((k) => decodeKeyText(k) === null).length;
    if (bad) ctx.addIssue({ code: "custom", message: `${bad} of its keys ${bad === 1 ? "is" : "are"} not 32 bytes as 64 hex characters or base64` });
  }),
  TRUST_PROXY: proxyTrust,
  RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).default(150),
  /** Image uploads (document, liveness burst, selfie) per session per 10 minutes. */
  SESSION_UPLOADS_PER_10_MINUTES: z.coerce.number().int().min(1).default(30),
  /** How long a process trusts a checked API key or client secret (0: check every request). */
  CREDENTIAL_CACHE_MS: z.coerce.number().int().min(0).max(300_000).default(10_000),
  /**
   * The lease of an Idempotency-Key claim: renewed every third of it while
   * the request runs; a claim whose process died is taken over after it.
   */
  IDEMPOTENCY_CLAIM_MS: z.coerce.number().int().min(300).max(600_000).default(60_000),
  /** JSON object of per-check prices in USD overriding the defaults, e.g. {"liveness":0.2}. */
  CHECK_PRICES: checkPrices,
  /** Retired (the old sweeper's period): accepted, ignored, and named in a warning at start-up (lib/server/scheduled-jobs.ts). */
  SWEEP_INTERVAL_SECONDS: z.coerce.number().int().min(1).optional(),
  /** Days after which a reusable identity's proof is stale: never reused, `stale: true` when read (docs/hosted-flow.md "Reusable identity"). */
  IDENTITY_STALE_DAYS: z.coerce.number().int().min(1).max(3650).default(365),
  /** Days a face-uniqueness enrollment is kept; unset: until the project unlinks it (docs/operations.md "Secrets and personal data at rest"). */
  FACE_GALLERY_RETENTION_DAYS: z.coerce.number().int().min(1).max(36_500).optional(),
  /** The movements face sign-in asks for, comma separated, any of LIVENESS_ACTIONS (docs/oidc.md "Face sign-in"). */
  FACE_SIGN_IN_ACTIONS: z
    .string()
    .regex(ACTION_LIST, `two or more of ${LIVENESS_ACTIONS.join(", ")}, comma separated`)
    .refine((v) => new Set(v.split(",").map((a) => a.trim())).size >= 2, "at least two different actions (the order must be unpredictable)")
    .default("turn_left,turn_right,blink"),
  /** Seconds before each delivery attempt, comma separated (docs/webhooks.md). */
  WEBHOOK_RETRY_SCHEDULE: z
    .string()
    .regex(/^\s*\d+(\s*,\s*\d+)*\s*$/, "comma-separated whole seconds, e.g. 0,5,300")
    .default("0,5,300,1800,7200,18000,36000,36000"),
  WEBHOOK_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(15_000),
  /** "off" on web instances when separate `npm run worker` processes deliver. */
  WEBHOOK_WORKER: z.enum(["on", "off"]).default("on"),
  /** "off" where background jobs (invitation emails, seat billing) should not run: they then run in `npm run worker`. */
  JOB_WORKER: z.enum(["on", "off"]).default("on"),
  /** Load the face and document models at start-up so the first check is warm (off: on first use). */
  VISION_PRELOAD: z.enum(["on", "off"]).default("on"),
  WEBHOOK_POLL_MS: z.coerce.number().int().min(10).max(60_000).default(250),
  /** Deliveries one worker process keeps in flight at once (docs/webhooks.md). */
  WEBHOOK_CONCURRENCY: z.coerce.number().int().min(1).max(256).default(16),
  /** Deliveries to one webhook endpoint in flight at once, across all workers (docs/webhooks.md). */
  WEBHOOK_CONCURRENCY_PER_ENDPOINT: z.coerce.number().int().min(1).max(256).default(4),
  /** Deliveries of one app (all its endpoints) in flight at once, across all workers; isolates tenants only below WEBHOOK_CONCURRENCY (docs/webhooks.md). */
  WEBHOOK_CONCURRENCY_PER_APP: z.coerce.number().int().min(1).max(256).default(8),
  /** CIDRs webhooks (test and production apps) may reach although private, comma separated (docs/webhooks.md). */
  WEBHOOK_ALLOWED_NETWORKS: z
    .string()
    .default("")
    .superRefine((value, ctx) => {
      const { invalid } = parseNetworkList(value);
      if (invalid.length) {
        ctx.addIssue({ code: "custom", message: `not a CIDR (e.g. 10.20.0.0/16 or fd00:1::/64): ${invalid.join(", ")}` });
      }
    }),
  /** The NPPES NPI Registry API (docs/licences.md); "off" removes the NPPES provider. */
  NPPES_BASE_URL: z
    .string()
    .default("https://npiregistry.cms.hhs.gov/api/")
    .refine((v) => v === "off" || /^https?:\/\/[^\s]+$/.test(v), "an http(s) URL, or off"),
  /** How long a licence registry may take to answer one lookup before the check says it is unavailable. */
  REGISTRY_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(8_000),
  /**
   * Developer portal sign-in: FAILED attempts per 15 minutes per (account, client IP), and per client IP
   * alone (successes do not count). Until 2026-11 these counted every attempt per account from anywhere.
   */
  PORTAL_SIGN_IN_ATTEMPTS_PER_ACCOUNT: z.coerce.number().int().min(1).default(10),
  PORTAL_SIGN_IN_ATTEMPTS_PER_IP: z.coerce.number().int().min(1).default(50),
  /** Developer portal sign-ups per client IP per hour (counted before the account is made). */
  PORTAL_SIGN_UPS_PER_IP_PER_HOUR: z.coerce.number().int().min(1).default(5),
  SMTP_HOST: optionalString,
  SMTP_PORT: z.coerce.number().int().min(1).max(65535).default(587),
  SMTP_SECURE: booleanFlag,
  SMTP_USER: optionalString,
  SMTP_PASSWORD: optionalString,
  SMTP_FROM: z.string().default("Identity Verification <no-reply@localhost>"),
  /** Wallet top-up through Stripe Checkout (docs/billing.md "Wallet top-up (Stripe)"): both keys or neither. */
  STRIPE_SECRET_KEY: optionalString.pipe(
    z.string().regex(/^(sk|rk)_(test|live)_\S+$/, "must be a Stripe secret or restricted key (sk_test_..., sk_live_..., rk_...)").optional(),
  ),
  STRIPE_WEBHOOK_SECRET: optionalString.pipe(
    z.string().regex(/^whsec_\S+$/, "must be a Stripe webhook signing secret (whsec_...)").optional(),
  ),
  STRIPE_API_BASE: stripeApiBase,
}).superRefine((env, ctx) => {
  const previous = splitKeyList(env.ENCRYPTION_KEY_PREVIOUS).map(decodeKeyText);
  const current = env.ENCRYPTION_KEY ? decodeKeyText(env.ENCRYPTION_KEY) : null;
  if (current && previous.every((k) => k !== null)) {
    const ids = previous.map((k) => keyIdOf(k!));
    if (ids.includes(keyIdOf(current))) {
      ctx.addIssue({ code: "custom", path: ["ENCRYPTION_KEY_PREVIOUS"], message: "repeats ENCRYPTION_KEY: list only the keys it replaced" });
    } else if (new Set(ids).size !== ids.length) {
      ctx.addIssue({ code: "custom", path: ["ENCRYPTION_KEY_PREVIOUS"], message: "lists the same key twice" });
    }
  }
  if ((env.STRIPE_SECRET_KEY === undefined) !== (env.STRIPE_WEBHOOK_SECRET === undefined)) {
    const missing = env.STRIPE_SECRET_KEY === undefined ? "STRIPE_SECRET_KEY" : "STRIPE_WEBHOOK_SECRET";
    ctx.addIssue({
      code: "custom",
      path: [missing],
      message: "wallet top-up needs both STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET (or neither, to turn it off)",
    });
  }
});

export type Env = z.infer<typeof EnvSchema> & {
  PUBLIC_BASE_URL: string;
  DATA_DIR: string;
  isProduction: boolean;
};

export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ConfigError";
  }
}

export function parseEnv(source: Record<string, string | undefined> = process.env): Env {
  const parsed = EnvSchema.safeParse(source);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join(".")}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join("\n")}`);
  }
  const env = parsed.data;
  return {
    ...env,
    PUBLIC_BASE_URL: (env.PUBLIC_BASE_URL ?? `http://localhost:${env.PORT}`).replace(/\/+$/, ""),
    DATA_DIR: path.resolve(/* turbopackIgnore: true */ env.DATA_DIR ?? ".data"),
    isProduction: env.NODE_ENV === "production",
  };
}

const envSlot = processSlot<Env>("env");

/** The process configuration (parsed on first use). */
export function env(): Env {
  envSlot.value ??= parseEnv();
  return envSlot.value;
}
