import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { centsToAmount, parseAmountToCents } from "@/lib/billing/money";
import { parseEnv } from "@/lib/config/env";
import { decodeEncryptionKey } from "@/lib/crypto/encryption-key";
import { decryptString, encryptString } from "@/lib/crypto/encryption";
import { hashPassword, hashSecret, verifyPassword } from "@/lib/crypto/secrets";
import { ERROR_CATALOGUE } from "@/lib/http/error-catalogue";
import { normaliseFeatures } from "@/lib/workflows/schemas";

describe("money", () => {
  it("parses decimal amounts into integer cents", () => {
    expect(parseAmountToCents("12.50")).toBe(1250);
    expect(parseAmountToCents("0.1")).toBe(10);
    expect(parseAmountToCents(100)).toBe(10000);
    expect(centsToAmount(11250)).toBe(112.5);
  });
  it.each(["-1", "1.001", "1e3", "", "abc", "1,5"])("rejects %j", (v) => {
    expect(() => parseAmountToCents(v)).toThrow(RangeError);
  });
});

describe("secrets", () => {
  it("hashes passwords with scrypt and verifies them", async () => {
    const hash = await hashPassword("correct horse");
    expect(hash).toMatch(/^scrypt\$16384\$8\$1\$/);
    expect(await verifyPassword("correct horse", hash)).toBe(true);
    expect(await verifyPassword("wrong horse", hash)).toBe(false);
    expect(await hashPassword("correct horse")).not.toBe(hash);
  });
  it("hashes tokens deterministically", () => {
    expect(hashSecret("sk_test_x")).toBe(hashSecret("sk_test_x"));
    expect(hashSecret("sk_test_x")).toHaveLength(64);
  });
});

describe("encryption at rest", () => {
  const key = randomBytes(32);
  it("round-trips and authenticates", () => {
    const sealed = encryptString("whsec_secret", key);
    expect(sealed).not.toContain("whsec_secret");
    expect(decryptString(sealed, key)).toBe("whsec_secret");
    expect(encryptString("whsec_secret", key)).not.toBe(sealed);
    const tampered = sealed.slice(0, -2) + (sealed.endsWith("A") ? "BB" : "AA");
    expect(() => decryptString(tampered, key)).toThrow();
    expect(() => decryptString(sealed, randomBytes(32))).toThrow();
  });
  it("accepts 32-byte keys as hex or base64 only", () => {
    expect(decodeEncryptionKey("ab".repeat(32))).toHaveLength(32);
    expect(decodeEncryptionKey(randomBytes(32).toString("base64"))).toHaveLength(32);
    expect(() => decodeEncryptionKey("short")).toThrow(/32 bytes/);
  });
});

describe("configuration", () => {
  it("fills defaults", () => {
    const env = parseEnv({});
    expect(env.PORT).toBe(3000);
    expect(env.PUBLIC_BASE_URL).toBe("http://localhost:3000");
    expect(env.RATE_LIMIT_PER_MINUTE).toBe(150);
    expect(env.TRUST_PROXY).toBeNull();
    expect(env.CHECK_PRICES).toEqual({});
    expect(env.isProduction).toBe(false);
  });
  it("takes a partial CHECK_PRICES list, as the README shows it, and refuses a bad one naming it", () => {
    expect(parseEnv({ CHECK_PRICES: '{"liveness":0.2}' }).CHECK_PRICES).toEqual({ liveness: 0.2 });
    expect(parseEnv({ CHECK_PRICES: '{"liveness":0.2,"face_match":0}' }).CHECK_PRICES).toEqual({ liveness: 0.2, face_match: 0 });
    expect(() => parseEnv({ CHECK_PRICES: '{"lively":0.2}' })).toThrow(/CHECK_PRICES/);
    expect(() => parseEnv({ CHECK_PRICES: '{"liveness":-1}' })).toThrow(/CHECK_PRICES/);
    expect(() => parseEnv({ CHECK_PRICES: '{"liveness":0.123}' })).toThrow(/CHECK_PRICES[\s\S]*2 decimals/);
    expect(() => parseEnv({ CHECK_PRICES: "liveness=0.2" })).toThrow(/CHECK_PRICES: must be a JSON object/);
  });
  it("reads TRUST_PROXY as off, a number of proxies, or their addresses", () => {
    for (const off of ["", "0", "false", "no"]) expect(parseEnv({ TRUST_PROXY: off }).TRUST_PROXY).toBeNull();
    expect(parseEnv({ TRUST_PROXY: "1" }).TRUST_PROXY).toBe(1);
    expect(parseEnv({ TRUST_PROXY: "true" }).TRUST_PROXY).toBe(1);
    expect(parseEnv({ TRUST_PROXY: "2" }).TRUST_PROXY).toBe(2);
    expect(parseEnv({ TRUST_PROXY: "loopback, 10.0.0.0/8" }).TRUST_PROXY).toBe("loopback, 10.0.0.0/8");
    expect(() => parseEnv({ TRUST_PROXY: "10.0.0.0/99" })).toThrow(/TRUST_PROXY/);
  });
  it("rejects bad values with every problem named", () => {
    expect(() => parseEnv({ PORT: "http", DATABASE_URL: "mysql://x", REDIS_URL: "x" })).toThrow(
      /PORT[\s\S]*DATABASE_URL[\s\S]*REDIS_URL/,
    );
  });
  it("trims a trailing slash from PUBLIC_BASE_URL", () => {
    expect(parseEnv({ PUBLIC_BASE_URL: "https://id.example.com/" }).PUBLIC_BASE_URL).toBe("https://id.example.com");
  });
});

describe("CLI arguments", () => {
  const usageOf = (name: string) => (name === "webhook:create" ? "--app APP --url URL [--approve]" : name === "demo" ? "" : undefined);

  it("reads --key value, --key=value and switches, as the command's usage line declares them", async () => {
    const { parseArgs } = await import("@/lib/cli/args");
    expect(parseArgs(["webhook:create", "--app", "a1", "--url=https://x/y?a=b", "--approve"], usageOf)).toEqual({
      command: "webhook:create",
      flags: { app: "a1", url: "https://x/y?a=b", approve: true },
    });
  });

  it("refuses stray arguments, unknown or misspelt flags, a value for a switch and a flag without its value", async () => {
    const { parseArgs, UsageError } = await import("@/lib/cli/args");
    expect(() => parseArgs(["demo", "oops"], usageOf)).toThrow(UsageError);
    expect(() => parseArgs(["webhook:create", "--app", "a1", "--ulr", "x"], usageOf)).toThrow(/ulr/);
    expect(() => parseArgs(["webhook:create", "--approve=yes"], usageOf)).toThrow(UsageError);
    expect(() => parseArgs(["webhook:create", "--app"], usageOf)).toThrow(/--app/);
    // An unknown command's flags are not read: the caller says the command is unknown.
    expect(parseArgs(["nope", "--x"], usageOf)).toEqual({ command: "nope", flags: {} });
  });

  it("takes each command's flags from its usage line", async () => {
    const { optionsOfUsage } = await import("@/lib/cli/args");
    const { COMMANDS } = await import("@/lib/cli/commands");
    expect(optionsOfUsage(COMMANDS["registry:import"]!.usage)).toEqual({
      file: { type: "string" },
      provider: { type: "string" },
      name: { type: "string" },
      state: { type: "string" },
      issuer: { type: "string" },
      format: { type: "string" },
      "required-fields": { type: "string" },
    });
    expect(optionsOfUsage(COMMANDS["app:logo"]!.usage)).toEqual({ app: { type: "string" }, file: { type: "string" }, clear: { type: "boolean" } });
    expect(optionsOfUsage(COMMANDS["licences:recheck"]!.usage)).toEqual({ force: { type: "boolean" } });
    expect(optionsOfUsage(COMMANDS["app:scopes"]!.usage)).toEqual({ app: { type: "string" }, scopes: { type: "string" } });
  });
});

describe("workflow features (spec 2.3)", () => {
  it("adding age injects id_verification", () => {
    expect(normaliseFeatures(["age"])).toEqual(["id_verification", "age"]);
    expect(normaliseFeatures(["liveness", "age", "id_verification"])).toEqual(["id_verification", "liveness", "age"]);
    expect(normaliseFeatures(["liveness"])).toEqual(["liveness"]);
  });
});

describe("error catalogue (spec 7)", () => {
  it("has the statuses of the spec's operation codes", () => {
    const expected: Record<string, number> = {
      invalid_api_key: 401,
      callback_not_allowed: 422,
      workflow_not_found: 404,
      not_found: 404,
      missing_parameter: 400,
      missing_identifier: 400,
      invalid_request: 400,
      review_not_pending: 409,
      required_face_checks_incomplete: 409,
      already_active: 409,
      deactivated: 409,
      rate_limited: 429,
      idempotency_in_progress: 409,
      idempotency_key_reused: 422,
      invalid_grant: 400,
      invalid_client: 401,
      invalid_scope: 400,
      insufficient_scope: 403,
      invalid_token: 401,
      unsupported_grant_type: 400,
      unsupported_response_type: 400,
      invalid_redirect_uri: 400,
      unauthorized_client: 403,
      access_denied: 403,
      endpoint_removed: 410,
      session_expired: 410,
      session_closed: 409,
      session_not_found: 404,
      token_missing: 401,
      image_too_large: 413,
      verification_soft_locked: 423,
      server_error: 500,
      insufficient_funds: 402,
    };
    for (const [code, status] of Object.entries(expected)) {
      expect(ERROR_CATALOGUE[code as keyof typeof ERROR_CATALOGUE]?.status, code).toBe(status);
    }
    expect(Object.keys(ERROR_CATALOGUE).length).toBeGreaterThanOrEqual(150);
  });
});
