import { describe, expect, it } from "vitest";
import { licencesOfNppesResult, NPPES_CREDENTIALS } from "@/lib/licence-registries/adapters/nppes";
import { isValidNpi } from "@/lib/licence-registries/inputs";
import { credentialVerdict } from "@/lib/credentials/run-credential-check";
import { RegistryUnavailableError, type CatalogueEntry, type RegistryLicence } from "@/lib/licence-registries/types";

const JORDAN = { first: "JORDAN", last: "SAMPLE", full: "JORDAN SAMPLE" };

const licence = (over: Partial<RegistryLicence> = {}): RegistryLicence => ({
  license_number: "SMB-10001",
  license_type: "Physician and Surgeon",
  holder: { first: "Jordan", last: "Sample", full: null },
  status: "active",
  registry_status: "Active",
  expires_on: "2030-06-30",
  state: "CA",
  issuing_authority: "Board",
  ...over,
});

describe("credentialVerdict (spec 2.2: passed only when matched, active and unexpired)", () => {
  const today = "2026-11-24";

  it("passes an active, unexpired licence in the verified person's name", () => {
    expect(credentialVerdict([licence()], JORDAN, today)).toMatchObject({
      status: "passed",
      data: { match: true, license: { status: "active", expires_at: "2030-06-30T23:59:59.999Z" } },
      error: null,
    });
    // No published expiry (NPPES): active, expires_at null.
    expect(credentialVerdict([licence({ expires_on: null })], JORDAN, today).data).toEqual({ match: true, license: { status: "active", expires_at: null } });
  });

  it("fails: not found; another person's licence (and says nothing about it); expired by date or by status; suspended, revoked", () => {
    expect(credentialVerdict([], JORDAN, today)).toMatchObject({ status: "failed", data: { match: false, license: null }, error: { code: "license_not_found" } });
    const theirs = credentialVerdict([licence({ holder: { first: "Pat", last: "Otherperson", full: null } })], JORDAN, today);
    expect(theirs).toMatchObject({ status: "failed", data: { match: false, license: null }, error: { code: "license_holder_mismatch" } });
    expect(theirs.licence).toBeUndefined();
    expect(credentialVerdict([licence({ expires_on: "2026-11-23" })], JORDAN, today)).toMatchObject({
      status: "failed",
      data: { license: { status: "expired" } },
      error: { code: "license_expired" },
    });
    // Valid through its expiry date.
    expect(credentialVerdict([licence({ expires_on: today })], JORDAN, today).status).toBe("passed");
    expect(credentialVerdict([licence({ status: "expired" })], JORDAN, today).error?.code).toBe("license_expired");
    for (const status of ["suspended", "revoked", "inactive"] as const) {
      expect(credentialVerdict([licence({ status })], JORDAN, today)).toMatchObject({ status: "failed", data: { license: { status } }, error: { code: "license_inactive" } });
    }
  });

  it("among several records, prefers the person's active one", () => {
    const found = [licence({ status: "revoked" }), licence({ holder: { first: "Pat", last: "Other", full: null } }), licence({ registry_status: "Clear" })];
    expect(credentialVerdict(found, JORDAN, today)).toMatchObject({ status: "passed", licence: { registry_status: "Clear" } });
  });
});

describe("NPI numbers", () => {
  it("accepts ten digits with the CMS check digit only", () => {
    expect(isValidNpi("1234567893")).toBe(true);
    expect(isValidNpi("1234567890")).toBe(false);
    expect(isValidNpi("123456789")).toBe(false);
    expect(isValidNpi("12345678931")).toBe(false);
    expect(isValidNpi("12345678a3")).toBe(false);
  });
});

describe("the NPPES adapter's reading of a registry record", () => {
  const entry: CatalogueEntry = {
    provider_code: "nppes",
    provider_display_name: "NPPES NPI Registry (CMS)",
    credential_code: "nppes-ca-physician",
    credential_name: "Physician (MD/DO)",
    state_code: "CA",
    remote_code: NPPES_CREDENTIALS[0].taxonomyPrefixes.join(","),
    required_fields: ["npi_number", "license_number"],
  };
  const record = (over: Record<string, unknown> = {}) => ({
    enumeration_type: "NPI-1",
    number: 1234567893,
    basic: { first_name: "JORDAN", last_name: "SAMPLE", status: "A" },
    taxonomies: [
      { code: "207R00000X", desc: "Internal Medicine", state: "CA", license: "A123456", primary: true },
      { code: "207R00000X", desc: "Internal Medicine", state: "NV", license: "A123456", primary: false },
      { code: "163W00000X", desc: "Registered Nurse", state: "CA", license: "A123456", primary: false },
    ],
    ...over,
  });
  const query = (licenceNumber: string) => ({ entry, inputs: { npi_number: "1234567893", license_number: licenceNumber } });

  it("keeps the taxonomies of the credential, in the state, with that licence number (compared normalised)", () => {
    expect(licencesOfNppesResult(record(), query("a-123456"))).toEqual([
      {
        license_number: "A123456",
        license_type: "Physician (MD/DO)",
        holder: { first: "JORDAN", last: "SAMPLE", full: null },
        status: "active",
        registry_status: "NPI active; Internal Medicine",
        expires_on: null,
        state: "CA",
        issuing_authority: "California licensing board (listed in NPPES)",
      },
    ]);
    expect(licencesOfNppesResult(record(), query("A999999"))).toEqual([]);
  });

  it("a record it cannot read, or of another NPI, means the registry is unavailable (review), never not found", () => {
    expect(() => licencesOfNppesResult(record({ enumeration_type: undefined }), query("A123456"))).toThrow(RegistryUnavailableError);
    expect(() => licencesOfNppesResult(record({ taxonomies: "none" }), query("A123456"))).toThrow(RegistryUnavailableError);
    expect(() => licencesOfNppesResult(record({ number: 1234567901 }), query("A123456"))).toThrow(/another NPI/);
  });

  it("a deactivated NPI's licence is inactive; an organisation (NPI-2) holds none", () => {
    expect(licencesOfNppesResult(record({ basic: { first_name: "JORDAN", last_name: "SAMPLE", status: "D" } }), query("A123456"))[0]).toMatchObject({ status: "inactive" });
    expect(licencesOfNppesResult(record({ enumeration_type: "NPI-2" }), query("A123456"))).toEqual([]);
  });
});
