import { beforeAll, describe, expect, it } from "vitest";

/** Rules of Reusable Verification that depend on the clock: when a proof may be reused, and how a result is labelled. */
beforeAll(() => {
  process.env.ENCRYPTION_KEY ??= "11".repeat(32);
});

const day = 86_400_000;

describe("proofState", () => {
  it("a proof is valid until its document expires and for 365 days after its verification, then expired or stale", async () => {
    const { proofState } = await import("@/lib/identity/profile");
    const { endOfDay } = await import("@/lib/identity/proofs");
    const verifiedAt = new Date("2026-01-10T12:00:00Z");
    const proof = { verifiedAt, validUntil: endOfDay("2027-06-30") };
    expect(proofState(proof, new Date("2026-06-01T00:00:00Z"))).toBe("valid");
    expect(proofState(proof, new Date(verifiedAt.getTime() + 365 * day))).toBe("valid");
    expect(proofState(proof, new Date(verifiedAt.getTime() + 365 * day + 1))).toBe("stale");
    expect(proofState(proof, new Date("2027-06-30T23:59:59.998Z"))).toBe("stale");
    expect(proofState(proof, new Date("2027-06-30T23:59:59.999Z"))).toBe("expired"); // expiry wins over staleness
    expect(proofState({ verifiedAt, validUntil: endOfDay("2026-02-01") }, new Date("2026-02-02T00:00:00Z"))).toBe("expired");
    expect(proofState({ verifiedAt, validUntil: null }, new Date("2026-12-31T00:00:00Z"))).toBe("valid"); // the enrolled face: until replaced
  });
});

describe("resultOrigin", () => {
  it("fresh, reused or mixed from the checks that ran", async () => {
    const { resultOrigin } = await import("@/lib/sessions/present");
    const reused = { status: "passed", data: { reused: true } };
    const fresh = { status: "passed", data: { live_score: 0.9 } };
    const skipped = { status: "not_performed", data: {} };
    expect(resultOrigin([fresh, skipped])).toBe("fresh");
    expect(resultOrigin([])).toBe("fresh");
    expect(resultOrigin([reused, skipped])).toBe("reused");
    expect(resultOrigin([reused, fresh])).toBe("mixed");
  });
});

describe("projectPseudonym", () => {
  it("is stable for a project and different across projects", async () => {
    const { pseudonymUnder } = await import("@/lib/identity/pseudonym");
    const key = Buffer.alloc(32, 7);
    expect(pseudonymUnder(key, "app-1", "acct")).toBe(pseudonymUnder(key, "app-1", "acct"));
    expect(pseudonymUnder(key, "app-1", "acct")).not.toBe(pseudonymUnder(key, "app-2", "acct"));
    expect(pseudonymUnder(key, "app-1", "acct")).not.toBe(pseudonymUnder(Buffer.alloc(32, 8), "app-1", "acct"));
    expect(pseudonymUnder(key, "app-1", "acct")).toMatch(/^psn_[A-Za-z0-9_-]{22}$/);
  });
});

describe("licenceFromRecord", () => {
  const record = (licence: object | null) =>
    ({
      licence,
      lookup: { provider_code: "sample-board", credential_code: "sample-board-phy", inputs: { license_number: "SMB-10001" } },
      verified_holder: { first: "JORDAN", last: "SAMPLE", full: "JORDAN SAMPLE" },
      looked_up_at: "2026-11-24T09:59:00.000Z",
    }) as Parameters<typeof import("@/lib/identity/proofs").licenceFromRecord>[0];

  it("makes a licence proof of a credential check's sealed record, with how and when it was looked up", async () => {
    const { licenceFromRecord, licenceProofKey } = await import("@/lib/identity/proofs");
    const holder = { first: "JORDAN", last: "SAMPLE", full: null };
    const proof = licenceFromRecord(
      record({
        license_number: "SMB-10001",
        license_type: "Physician and Surgeon",
        holder,
        status: "active",
        registry_status: "Active",
        expires_on: "2030-06-30",
        state: "CA",
        issuing_authority: "Sample Board",
      }),
    );
    expect(proof).toEqual({
      license_type: "Physician and Surgeon",
      license_number: "SMB-10001",
      state: "CA",
      issuing_authority: "Sample Board",
      status: "active",
      registry_status: "Active",
      expires_on: "2030-06-30",
      holder,
      lookup: { provider_code: "sample-board", credential_code: "sample-board-phy", inputs: { license_number: "SMB-10001" } },
      checked_at: "2026-11-24T09:59:00.000Z",
    });
    // One proof per licence, found again however the number is typed; the key does not show the number.
    const key = licenceProofKey(proof!);
    expect(key).toBe(licenceProofKey({ ...proof!, license_number: "smb 10001" }));
    expect(key).not.toBe(licenceProofKey({ ...proof!, license_number: "SMB-10002" }));
    expect(key).not.toMatch(/SMB|10001/);
    // A record without a licence (the registry did not answer) makes no proof.
    expect(licenceFromRecord(record(null))).toBeNull();
  });
});
