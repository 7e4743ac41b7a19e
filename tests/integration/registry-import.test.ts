import { createHash, randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { shared } from "../support/api";
import { cliProcess as cli, runCli } from "../support/cli";
import { sql } from "../support/database";
import { useServerDatabase } from "../support/domain";

/**
 * Imported licence registries (docs/licences.md "Importing a licence registry"): the
 * admin CLI's registry:import and registry:list on the shared server's
 * database, the adapter and name search in this process on the same
 * database. Each test imports under its own provider codes (the database is
 * shared; other files import the sample as "sample-board").
 */
useServerDatabase();

const env = () => shared().env;
const SAMPLE = path.join(__dirname, "../../registry/samples/sample-medical-board.csv");
const SAMPLE_JSON = path.join(__dirname, "../../registry/samples/sample-medical-board.json");
const BOARD = "Sample State Board of Medicine (fictitious)";
const SAMPLE_ROWS = fs.readFileSync(SAMPLE, "utf8").trim().split("\n").length - 1;

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "registry-import-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const providerCode = (label: string) => `t-${label}-${randomBytes(4).toString("hex")}`;

function writeFile(name: string, text: string) {
  const file = path.join(dir, name);
  fs.writeFileSync(file, text);
  return file;
}

function importSample(provider: string, file = SAMPLE, extra: string[] = []) {
  return cli(["registry:import", "--file", file, "--provider", provider, "--name", BOARD, "--state", "CA", ...extra], env());
}

async function licenceCount(provider: string) {
  const [row] = await sql(env(), `SELECT count(*)::int AS n FROM registry_licences WHERE provider_code = $1`, [provider]);
  return row.n as number;
}

async function entryOf(provider: string, remoteCode: string) {
  const { importedCatalogue } = await import("@/lib/licence-registries/adapters/imported-registry");
  const entry = (await importedCatalogue()).find((e) => e.provider_code === provider && e.remote_code === remoteCode);
  if (!entry) throw new Error(`no catalogue entry ${provider}/${remoteCode}`);
  return entry;
}

async function lookup(provider: string, remoteCode: string, inputs: { license_number?: string }) {
  const { importedRegistryAdapter } = await import("@/lib/licence-registries/adapters/imported-registry");
  return importedRegistryAdapter.lookup({ entry: await entryOf(provider, remoteCode), inputs }, { signal: new AbortController().signal });
}

describe("registry:import and registry:list", () => {
  it("imports the sample: one JSON object with the provider, its credentials and counts; registry:list shows it", async () => {
    const provider = providerCode("sample");
    const result = await runCli(
      ["registry:import", "--file", SAMPLE, "--provider", provider, "--name", BOARD, "--state", "ca", "--issuer", "Sample Medical Board"],
      env(),
    );
    expect(result.code).toBe(0);
    expect(result.stdout.trim().split("\n")).toHaveLength(1);
    const sha256 = createHash("sha256").update(fs.readFileSync(SAMPLE)).digest("hex");
    expect(result.json).toEqual({
      provider_code: provider,
      state_code: "CA",
      display_name: BOARD,
      credentials: [
        { credential_code: `${provider}-phy`, credential_name: "Physician and Surgeon", remote_code: "PHY" },
        { credential_code: `${provider}-rn`, credential_name: "Registered Nurse", remote_code: "RN" },
      ],
      licences: SAMPLE_ROWS,
      replaced: false,
      sha256,
    });
    expect(await licenceCount(provider)).toBe(SAMPLE_ROWS);

    const listed = (await cli(["registry:list"], env())).providers.find((p: { provider_code: string }) => p.provider_code === provider);
    expect(listed).toEqual({
      provider_code: provider,
      display_name: BOARD,
      state_code: "CA",
      issuing_authority: "Sample Medical Board",
      required_fields: ["license_number"],
      licences: SAMPLE_ROWS,
      credentials: result.json!.credentials,
      imported_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
      sha256,
    });
    expect((await entryOf(provider, "PHY"))).toEqual({
      provider_code: provider,
      provider_display_name: BOARD,
      credential_code: `${provider}-phy`,
      credential_name: "Physician and Surgeon",
      state_code: "CA",
      remote_code: "PHY",
      required_fields: ["license_number"],
    });
  });

  it("a re-import is atomic: a file with one bad row changes nothing and names the line; a good one replaces everything", async () => {
    const provider = providerCode("reimport");
    const first = await importSample(provider);

    const lines = fs.readFileSync(SAMPLE, "utf8").split("\n");
    const badLine = lines.findIndex((l) => l.startsWith("SMB-10004,"));
    lines[badLine] = lines[badLine]!.replace(",Active,", ",Pending review,");
    const bad = writeFile("bad.csv", lines.join("\n"));
    const failed = await runCli(["registry:import", "--file", bad, "--provider", provider, "--name", "Renamed", "--state", "NV"], env());
    expect(failed.code).toBe(1);
    expect(failed.stdout).toBe("");
    const error = JSON.parse(failed.stderr.trim().split("\n").at(-1)!).error;
    expect(error.code).toBe("invalid_request");
    expect(error.message).toContain(`line ${badLine + 1}, status`);
    expect(error.details).toEqual({ errors: [expect.stringMatching(new RegExp(`^line ${badLine + 1}, status: "Pending review"`))], error_count: 1 });

    // The old data is all there.
    const listed = (await cli(["registry:list"], env())).providers.find((p: { provider_code: string }) => p.provider_code === provider);
    expect(listed).toMatchObject({ display_name: BOARD, state_code: "CA", licences: SAMPLE_ROWS, sha256: first.sha256 });
    expect(await licenceCount(provider)).toBe(SAMPLE_ROWS);
    expect(await lookup(provider, "PHY", { license_number: "SMB-10004" })).toHaveLength(1);

    const replacement = writeFile(
      "replacement.csv",
      [
        "license_number,first_name,last_name,license_type,license_type_code,status,expires_on",
        "SMB-10001,JORDAN,SAMPLE,Physician and Surgeon,PHY,Revoked,2030-06-30",
        "SMB-90001,NOAH,INVENTED,Physician and Surgeon,PHY,Active,2031-01-31",
        "PA-1,ELI,FABRICATED,Physician Assistant,PA,Active,",
      ].join("\n"),
    );
    const replaced = await cli(
      ["registry:import", "--file", replacement, "--provider", provider, "--name", "Renamed board", "--state", "NV"],
      env(),
    );
    expect(replaced).toMatchObject({
      provider_code: provider,
      state_code: "NV",
      display_name: "Renamed board",
      licences: 3,
      replaced: true,
      credentials: [
        { credential_code: `${provider}-pa`, credential_name: "Physician Assistant", remote_code: "PA" },
        { credential_code: `${provider}-phy`, credential_name: "Physician and Surgeon", remote_code: "PHY" },
      ],
    });
    expect(await licenceCount(provider)).toBe(3);
    const credentials = await sql(env(), `SELECT code FROM registry_credentials WHERE provider_code = $1 ORDER BY code`, [provider]);
    expect(credentials.map((c) => c.code)).toEqual([`${provider}-pa`, `${provider}-phy`]);
    expect(await lookup(provider, "PHY", { license_number: "SMB-10004" })).toEqual([]);
    expect(await lookup(provider, "PHY", { license_number: "SMB-10001" })).toEqual([
      expect.objectContaining({ status: "revoked", registry_status: "Revoked", state: "NV", issuing_authority: "Renamed board" }),
    ]);
  });

  it("imports JSON (format from the extension) and refuses bad arguments", async () => {
    const provider = providerCode("json");
    const imported = await cli(
      ["registry:import", "--file", SAMPLE_JSON, "--provider", provider, "--name", "Sample Nursing Board (fictitious)", "--state", "NV"],
      env(),
    );
    expect(imported).toMatchObject({ state_code: "NV", licences: 4, replaced: false });
    expect(imported.credentials.map((c: { remote_code: string }) => c.remote_code)).toEqual(["APRN", "LPN", "RN"]);

    const usage = await runCli(["registry:import", "--provider", provider, "--name", "X", "--state", "NV"], env());
    expect(usage.code).toBe(2);
    expect(JSON.parse(usage.stderr.trim().split("\n").at(-1)!).error.message).toContain("--file is required");
    const badFormat = await runCli(["registry:import", "--file", SAMPLE, "--provider", provider, "--name", "X", "--state", "NV", "--format", "xml"], env());
    expect(badFormat.code).toBe(2);

    for (const [args, message] of [
      [["--provider", "nppes"], "reserved"],
      [["--provider", "Bad Code"], "provider code"],
      [["--provider", provider, "--state", "ZZ"], "not a US state"],
      [["--provider", provider, "--required-fields", "npi_number"], "include license_number"],
    ] as const) {
      const flags = { "--provider": provider, "--state": "NV", "--name": "X" } as Record<string, string>;
      for (let i = 0; i < args.length; i += 2) flags[args[i]!] = args[i + 1]!;
      const result = await runCli(["registry:import", "--file", SAMPLE, ...Object.entries(flags).flat()], env());
      expect(result.code, `${args.join(" ")}: ${result.stderr}`).toBe(1);
      const error = JSON.parse(result.stderr.trim().split("\n").at(-1)!).error;
      expect(error.code).toBe("invalid_request");
      expect(error.message).toContain(message);
    }
    // Nothing of the refused imports was written: the JSON import is intact.
    expect(await licenceCount(provider)).toBe(4);
  });

  it("refuses a credential code another provider already has", async () => {
    const { importRegistry } = await import("@/lib/licence-registries/import/import-registry");
    const base = providerCode("clash");
    const a = writeFile("clash-a.csv", "license_number,first_name,last_name,license_type,license_type_code,status\nX-1,A,PERSON,Type B C,b-c,Active\n");
    const b = writeFile("clash-b.csv", "license_number,first_name,last_name,license_type,license_type_code,status\nX-2,B,PERSON,Type C,c,Active\n");
    const common = { displayName: "Clash", stateCode: "TX", issuingAuthority: "Clash" };
    expect(await importRegistry({ ...common, providerCode: base, file: a })).toMatchObject({ credentials: [{ credential_code: `${base}-b-c` }] });
    await expect(importRegistry({ ...common, providerCode: `${base}-b`, file: b })).rejects.toMatchObject({
      code: "invalid_request",
      message: expect.stringContaining(`"${base}-b-c" belongs to the provider "${base}"`),
    });
    expect(await sql(env(), `SELECT code FROM registry_providers WHERE code = $1`, [`${base}-b`])).toEqual([]);
  });
});

describe("the imported registry adapter", () => {
  it("finds a licence by its number however it is written, only in its own credential; [] for an unknown or missing number", async () => {
    const provider = providerCode("lookup");
    await importSample(provider);
    const jordan = {
      license_number: "SMB-10001",
      license_type: "Physician and Surgeon",
      holder: { first: "JORDAN", last: "SAMPLE", full: "JORDAN SAMPLE" },
      status: "active",
      registry_status: "Active",
      expires_on: "2030-06-30",
      state: "CA",
      issuing_authority: BOARD,
    };
    expect(await lookup(provider, "PHY", { license_number: "smb 10001" })).toEqual([jordan]);
    expect(await lookup(provider, "PHY", { license_number: "SMB-10001" })).toEqual([jordan]);
    expect(await lookup(provider, "PHY", { license_number: "SMB-10002" })).toEqual([
      expect.objectContaining({ status: "active", expires_on: "2025-01-31" }),
    ]);
    expect(await lookup(provider, "PHY", { license_number: "SMB-10003" })).toEqual([expect.objectContaining({ status: "suspended" })]);
    expect(await lookup(provider, "RN", { license_number: "rn-20001" })).toEqual([
      expect.objectContaining({ holder: { first: "RILEY", last: "EXAMPLE", full: "RILEY EXAMPLE" }, status: "active", registry_status: "Clear" }),
    ]);
    expect(await lookup(provider, "RN", { license_number: "SMB-10001" })).toEqual([]);
    expect(await lookup(provider, "PHY", { license_number: "SMB-99999" })).toEqual([]);
    expect(await lookup(provider, "PHY", {})).toEqual([]);
  });

  it("searches by last name (normalised), only in the provider asked", async () => {
    const { searchImportedRegistryByName } = await import("@/lib/licence-registries/adapters/imported-registry");
    const provider = providerCode("byname");
    await importSample(provider);
    const jordans = await searchImportedRegistryByName(provider, "Sample");
    expect(jordans.map((r) => r.license_number).sort()).toEqual(["SMB-10001", "SMB-10002", "SMB-10003", "SMB-10005", "SMB-10006"]);
    expect(jordans[0]).toMatchObject({ first_name: "JORDAN", last_name: "SAMPLE", state: "CA", issuing_authority: BOARD });
    expect((await searchImportedRegistryByName(provider, "o’example")).map((r) => r.license_number)).toEqual(["SMB-10010"]);
    expect((await searchImportedRegistryByName(provider, "Inventado Prueba")).map((r) => r.first_name)).toEqual(["JOSÉ"]);
    expect(await searchImportedRegistryByName(provider, "Nobody")).toEqual([]);
    expect(await searchImportedRegistryByName(providerCode("other"), "Sample")).toEqual([]);
    expect(await searchImportedRegistryByName(provider, "Sample", { limit: 2 })).toHaveLength(2);
  });

  it("stores no name or licence number in clear", async () => {
    const provider = providerCode("sealed");
    await importSample(provider);
    const rows = await sql(
      env(),
      `SELECT encode(sealed, 'escape') AS sealed, number_key, last_name_key, credential_code FROM registry_licences WHERE provider_code = $1`,
      [provider],
    );
    expect(rows).toHaveLength(SAMPLE_ROWS);
    const text = JSON.stringify(rows).toUpperCase();
    for (const secret of ["SAMPLE", "JORDAN", "RILEY", "EXAMPLE", "OTHERPERSON", "SMB-10001", "SMB10001", "RN-20001", "ACTIVE", "2030-06-30"]) {
      expect(text).not.toContain(secret);
    }
    const [clear] = await sql(
      env(),
      `SELECT count(*)::int AS n FROM registry_licences
        WHERE provider_code = $1 AND (encode(sealed, 'escape') LIKE '%SAMPLE%' OR encode(sealed, 'escape') LIKE '%SMB-10001%')`,
      [provider],
    );
    expect(clear.n).toBe(0);
  });
});
