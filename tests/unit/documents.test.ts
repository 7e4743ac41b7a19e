import { describe, expect, it } from "vitest";
import { AamvaFormatError, parseAamva } from "@/lib/documents/aamva";
import { MrzFormatError, parseMrz, resolveMrzDate } from "@/lib/documents/mrz";
import { mrzConfidence } from "@/lib/documents/read-mrz-zone";

/** An AAMVA payload: header, one designator, the DL subfile (offset 31, as the standard lays it out). */
function aamva(elements: string[], { type = "DL", iin = "636014", version = "09" } = {}): string {
  const subfile = `${type}${elements.join("\n")}\r`;
  return `@\n\x1e\rANSI ${iin}${version}0001${type}0031${String(subfile.length).padStart(4, "0")}${subfile}`;
}

const LICENCE_A = [
  "DAQS4829105",
  "DCSSAMPLE",
  "DACJORDAN",
  "DADNONE",
  "DBD04122023",
  "DBB04121990",
  "DBA04122031",
  "DBC1",
  "DAJCA",
  "DCGUSA",
];

describe("AAMVA driving licence barcode", () => {
  it("reads names, document number, state and MMDDCCYY dates of a US licence", () => {
    const record = parseAamva(aamva(LICENCE_A));
    expect(record).toMatchObject({
      subfile: "DL",
      issuer_id: "636014",
      aamva_version: 9,
      first_name: "JORDAN",
      middle_name: null, // "NONE" is how issuers write an absent middle name
      last_name: "SAMPLE",
      date_of_birth: "1990-04-12",
      expiry_date: "2031-04-12",
      issue_date: "2023-04-12",
      document_number: "S4829105",
      state: "CA",
      country: "USA",
      sex: "M",
    });
  });

  it("reads CCYYMMDD dates on a Canadian card and an ID subfile", () => {
    const record = parseAamva(aamva(["DAQ123456789", "DCSTREMBLAY", "DACCLAIRE", "DBB19900412", "DBA20300131", "DBC2", "DAJQC", "DCGCAN"], { type: "ID", iin: "636044" }));
    expect(record).toMatchObject({ subfile: "ID", country: "CAN", state: "QC", date_of_birth: "1990-04-12", expiry_date: "2030-01-31", sex: "F" });
  });

  it("still finds the subfile when the issuer wrote a wrong offset", () => {
    const good = aamva(LICENCE_A);
    const wrongOffset = good.replace("DL0031", "DL0044");
    expect(parseAamva(wrongOffset).last_name).toBe("SAMPLE");
  });

  it("leaves absent elements null instead of inventing them", () => {
    const record = parseAamva(aamva(["DAQS4829105", "DCSSAMPLE", "DACJORDAN", "DBB04121990", "DAJCA"]));
    expect(record.expiry_date).toBeNull();
    expect(record.sex).toBeNull();
    expect(record.country).toBe("USA"); // no DCG: the USA date layout applies
  });

  it.each([
    ["text that is not a barcode payload", "hello world", /header/],
    ["a header without subfiles", "@\n\x1e\rANSI 636014090000", /no subfile/],
    ["a truncated designator", "@\n\x1e\rANSI 636014090001DL00", /designator 1 of 1 is malformed/],
    ["no DL or ID subfile", "@\n\x1e\rANSI 636014090001ZC00310010ZCZCAX\r", /no DL or ID subfile/],
    ["a date that is not a calendar date", aamva(LICENCE_A.map((e) => (e.startsWith("DBB") ? "DBB02301990" : e))), /not a calendar date: 02301990/],
    ["a date of the wrong length", aamva(LICENCE_A.map((e) => (e.startsWith("DBA") ? "DBA0412203" : e))), /not 8 digits/],
    ["a garbled element", aamva([...LICENCE_A.slice(0, 3), "x?"]), /element is malformed/],
    ["an unknown country", aamva([...LICENCE_A.slice(0, 9), "DCGMEX"]), /neither USA nor CAN/],
  ])("rejects %s with a clear error", (_, text, message) => {
    expect(() => parseAamva(text)).toThrowError(AamvaFormatError);
    expect(() => parseAamva(text)).toThrowError(message);
  });
});

// The passport fixture's MRZ (tests/fixtures/documents/README.md).
const TD3 = ["P<USASAMPLE<<JORDAN<<<<<<<<<<<<<<<<<<<<<<<<<", "X814527365USA9004126M3406304<<<<<<<<<<<<<<04"];
const TD1 = ["IDUSAC038472615<<<<<<<<<<<<<<<", "0703080F3203086USA<<<<<<<<<<<2", "EXAMPLE<<RILEY<<<<<<<<<<<<<<<<"];
const TODAY = new Date("2026-11-21T12:00:00Z");

describe("MRZ", () => {
  it("reads a passport (TD3) with valid check digits", () => {
    expect(parseMrz(TD3, TODAY)).toEqual({
      format: "TD3",
      document_code: "P",
      first_name: "JORDAN",
      last_name: "SAMPLE",
      document_number: "X81452736",
      nationality: "USA",
      issuing_state: "USA",
      date_of_birth: "1990-04-12",
      expiry_date: "2034-06-30",
      sex: "M",
      check_digits_valid: true,
      failed_check_digits: [],
      invalid_fields: [],
      autocorrected: 0,
    });
  });

  it("reads an ID card (TD1) and puts a 2007 birth date in this century", () => {
    expect(parseMrz(TD1, TODAY)).toMatchObject({ format: "TD1", document_number: "C03847261", last_name: "EXAMPLE", first_name: "RILEY", date_of_birth: "2007-03-08", expiry_date: "2032-03-08", sex: "F", check_digits_valid: true });
  });

  it("reports a wrong check digit and the field it guards, keeping the values for review", () => {
    const broken = [TD3[0]!, TD3[1]!.slice(0, 19) + "1" + TD3[1]!.slice(20)];
    const record = parseMrz(broken, TODAY);
    expect(record.check_digits_valid).toBe(false);
    expect(record.failed_check_digits).toEqual(["birthDate", "composite"]);
    expect(record.date_of_birth).toBe("1990-04-12");
  });

  it("autocorrects letters OCR reads in digit-only fields (O for 0) and says so", () => {
    const ocr = [TD3[0]!, "X814527365USA9OO4126M34O63O4<<<<<<<<<<<<<<04"];
    const record = parseMrz(ocr, TODAY);
    expect(record).toMatchObject({ date_of_birth: "1990-04-12", expiry_date: "2034-06-30", check_digits_valid: true });
    expect(record.autocorrected).toBe(4);
  });

  it("flags an invalid date instead of resolving it", () => {
    const record = parseMrz([TD3[0]!, "X814527365USA9013126M3406304<<<<<<<<<<<<<<04"], TODAY);
    expect(record.date_of_birth).toBeNull();
    expect(record.invalid_fields).toEqual([{ field: "birthDate", error: "invalid date month: 13" }]);
    expect(record.check_digits_valid).toBe(false);
  });

  it.each([
    ["a line one character short", [TD3[0]!.slice(1), TD3[1]!], /length of 43/],
    ["characters outside the MRZ alphabet", [TD3[0]!.replace("SAMPLE", "SAMP.E"), TD3[1]!], /may only hold A-Z, 0-9 and '<'/],
    ["lower-case letters", [TD3[0]!.replace("SAMPLE", "Sample"), TD3[1]!], /may only hold/],
    ["a single line", [TD3[0]!], /./],
  ])("rejects %s", (_, lines, message) => {
    expect(() => parseMrz(lines, TODAY)).toThrowError(MrzFormatError);
    expect(() => parseMrz(lines, TODAY)).toThrowError(message);
  });

  it.each([
    ["900412", "birth", "1990-04-12"],
    ["070308", "birth", "2007-03-08"],
    ["261121", "birth", "2026-11-21"], // born today
    ["261122", "birth", "1926-11-22"], // tomorrow: must be a century ago
    ["340630", "expiry", "2034-06-30"],
    ["460101", "expiry", "2046-01-01"], // 20 years ahead is the limit
    ["470101", "expiry", "1947-01-01"],
    ["950101", "expiry", "1995-01-01"], // long expired, not 2095
    ["250412", "expiry", "2025-04-12"],
    ["900231", "birth", null], // 31 February
  ] as const)("resolves %s as a %s date to %s", (yymmdd, kind, iso) => {
    expect(resolveMrzDate(yymmdd, kind, TODAY)).toBe(iso);
  });

  it("trusts a verified MRZ more than its OCR alone, and never trusts an unverified one above 0.5", () => {
    expect(mrzConfidence(0.9, true)).toBe(0.95);
    expect(mrzConfidence(0.9, false)).toBe(0.45);
    expect(mrzConfidence(1, false)).toBe(0.5);
  });
});
