import { describe, expect, it } from "vitest";
import { hashSecret } from "@/lib/crypto/secrets";
import { apiKeyIsUsable, matchClientSecret } from "@/lib/http/auth";
import { ExpirePreviousIn, previousExpiry, RollBody } from "@/lib/tenancy/roll-window";

/** The rules of rolling a credential (lib/tenancy/roll-window.ts, lib/http/auth.ts); the HTTP paths are in tests/integration/rolling-credentials.test.ts. */
const at = new Date("2026-11-27T12:00:00.000Z");
const later = (seconds: number) => new Date(at.getTime() + seconds * 1000);

describe("rolling windows", () => {
  it("default 24 hours; 0 (stop now) to 7 days in whole seconds; anything else refused", () => {
    expect(RollBody.parse({})).toEqual({ expire_previous_in: 86_400 });
    expect(ExpirePreviousIn.parse(0)).toBe(0);
    expect(ExpirePreviousIn.parse(604_800)).toBe(604_800);
    for (const bad of [-1, 604_801, 1.5, "3600", null]) expect(ExpirePreviousIn.safeParse(bad).success, String(bad)).toBe(false);
  });
  it("the previous one expires the window after now; a window of 0 means no previous one", () => {
    expect(previousExpiry(at, 3600)).toEqual(later(3600));
    expect(previousExpiry(at, 0)).toBeNull();
  });
});

describe("a rolled API key", () => {
  it("works until its expiry, not at it or after; a revoked key never", () => {
    const rolled = { revokedAt: null, expiresAt: later(60) };
    expect(apiKeyIsUsable(rolled, at)).toBe(true);
    expect(apiKeyIsUsable(rolled, later(60))).toBe(false);
    expect(apiKeyIsUsable(rolled, later(61))).toBe(false);
    expect(apiKeyIsUsable({ revokedAt: null, expiresAt: null }, later(10 ** 9))).toBe(true);
    expect(apiKeyIsUsable({ revokedAt: at, expiresAt: later(60) }, at)).toBe(false);
  });
});

describe("the previous client secret", () => {
  const app = { clientSecretHash: hashSecret("cs_new"), previousClientSecretHash: hashSecret("cs_old"), previousClientSecretExpiresAt: later(60) };
  it("the current secret always; the previous one until its expiry (and the cache may keep it only until then)", () => {
    expect(matchClientSecret(app, hashSecret("cs_new"), later(61))).toEqual({ until: null });
    expect(matchClientSecret(app, hashSecret("cs_old"), at)).toEqual({ until: later(60).getTime() });
    expect(matchClientSecret(app, hashSecret("cs_old"), later(60))).toBe(false);
    expect(matchClientSecret(app, hashSecret("cs_other"), at)).toBe(false);
    expect(matchClientSecret({ ...app, previousClientSecretHash: null, previousClientSecretExpiresAt: null }, hashSecret("cs_old"), at)).toBe(false);
  });
});
