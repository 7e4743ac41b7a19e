import { describe, expect, it } from "vitest";
import { checkFrontConsistency, extractFrontFields, type FrontLine } from "@/lib/documents/document-consistency";
import { EMPTY_FIELDS, type DocumentFields } from "@/lib/documents/document-reading";

/**
 * The front/back cross-check on OCR lines shaped as the worker returns them
 * (the lines below are what it read on the specimen fronts of
 * tests/fixtures/documents/, labels dropped or garbled as tesseract left them).
 */
const TODAY = new Date("2026-11-21T12:00:00Z");
const line = (text: string, confidence = 0.95): FrontLine => ({ text, confidence, words: text.split(" ").map((w) => ({ text: w, confidence })) });

const LICENCE_A_FRONT: FrontLine[] = [
  { text: "0. S4829105", confidence: 0, words: [{ text: "0.", confidence: 0 }, { text: "S4829105", confidence: 0 }] },
  line("04/12/2031", 0.93),
  line("SAMPLE"),
  line("JORDAN"),
  line("1234 SPECIMEN ST"),
  line("SACRAMENTO, CA 95814"),
  line("04/12/1990", 0.94),
  { text: "M H 5-10 E BRO", confidence: 0, words: ["M", "H", "5-10", "E", "BRO"].map((text, i) => ({ text, confidence: [0, 0.36, 0.91, 0, 0.96][i]! })) },
  { text: "15 04/12/2023 AS C", confidence: 0, words: ["15", "04/12/2023", "AS", "C"].map((text, i) => ({ text, confidence: [0, 0.67, 0, 0.84][i]! })) },
];
const ID_CARD_B_FRONT: FrontLine[] = [line("S", 0), line("EXAMPLE"), line("GV", 0), line("RILEY"), line("08 MAR 2007"), line("D N.", 0), line("C03847261", 0.77), line("08 MAR 2032")];

const zone = (fields: Partial<DocumentFields>): DocumentFields => ({ ...EMPTY_FIELDS, ...fields });
const BARCODE_A = zone({ first_name: "JORDAN", last_name: "SAMPLE", full_name: "JORDAN SAMPLE", date_of_birth: "1990-04-12", expiry_date: "2031-04-12", document_number: "S4829105" });
const BARCODE_B = zone({ first_name: "RILEY", last_name: "EXAMPLE", full_name: "RILEY EXAMPLE", date_of_birth: "2007-03-08", expiry_date: "2029-03-08", document_number: "E7654321" });
const MRZ_B = zone({ first_name: "RILEY", last_name: "EXAMPLE", date_of_birth: "2007-03-08", expiry_date: "2032-03-08", document_number: "C03847261" });
const MRZ_A = zone({ first_name: "JORDAN", last_name: "SAMPLE", date_of_birth: "1990-04-12", expiry_date: "2033-04-12", document_number: "C19283746" });

describe("reading a front's printed fields", () => {
  it("finds the dates (both printed formats), the number and the name words, not the card's own words or the address", () => {
    expect(extractFrontFields([...LICENCE_A_FRONT, line("DRIVER LICENSE"), line("PECIM", 0)])).toEqual({
      dates: [
        { iso: "2031-04-12", confidence: 0.93 },
        { iso: "1990-04-12", confidence: 0.94 },
        { iso: "2023-04-12", confidence: 0.67 },
      ],
      numbers: [{ value: "S4829105", confidence: 0 }],
      names: ["sample", "jordan"],
    });
    expect(extractFrontFields(ID_CARD_B_FRONT).dates.map((d) => d.iso)).toEqual(["2007-03-08", "2032-03-08"]);
  });

  it("folds digit-like letters in dates and numbers, and digits in names", () => {
    const fields = extractFrontFields([line("O4/l2/199O"), line("J0RDAN"), line("S48291O5")]);
    expect(fields.dates.map((d) => d.iso)).toEqual(["1990-04-12"]);
    expect(fields.names).toEqual(["jordan"]);
    expect(fields.numbers.map((n) => n.value)).toEqual(["S48291O5"]);
  });

  it("does not take a date whose slashes were lost for a document number, nor an impossible date for a date", () => {
    const fields = extractFrontFields([line("04121990"), line("13/45/2031")]);
    expect(fields.numbers).toEqual([]);
    expect(fields.dates).toEqual([]);
  });
});

describe("the front against the barcode or MRZ", () => {
  it("a consistent licence and ID card agree on every field", () => {
    expect(checkFrontConsistency(LICENCE_A_FRONT, BARCODE_A, TODAY)).toEqual({
      verdict: "consistent",
      fields: { name: "match", date_of_birth: "match", document_number: "match", expiry_date: "match" },
      mismatched: [],
    });
    expect(checkFrontConsistency(ID_CARD_B_FRONT, MRZ_B, TODAY).verdict).toBe("consistent");
  });

  it("a swapped back (another person's barcode or MRZ) is inconsistent, naming the fields, not their values", () => {
    const swapped = checkFrontConsistency(LICENCE_A_FRONT, BARCODE_B, TODAY);
    expect(swapped.verdict).toBe("inconsistent");
    expect(swapped.mismatched).toEqual(["name", "date_of_birth", "expiry_date"]); // the number was read without confidence
    expect(checkFrontConsistency(ID_CARD_B_FRONT, MRZ_A, TODAY)).toMatchObject({ verdict: "inconsistent", mismatched: ["name", "date_of_birth", "document_number", "expiry_date"] });
  });

  it("a single altered field is enough: another date of birth, another number, another first name", () => {
    expect(checkFrontConsistency(LICENCE_A_FRONT, { ...BARCODE_A, date_of_birth: "1985-04-12" }, TODAY)).toMatchObject({ verdict: "inconsistent", mismatched: ["date_of_birth"] });
    expect(checkFrontConsistency(ID_CARD_B_FRONT, { ...MRZ_B, document_number: "C99999999" }, TODAY)).toMatchObject({ verdict: "inconsistent", mismatched: ["document_number"] });
    expect(checkFrontConsistency(LICENCE_A_FRONT, { ...BARCODE_A, first_name: "JORDANA" }, TODAY).verdict).toBe("consistent"); // one edit at 6+ letters
    expect(checkFrontConsistency(LICENCE_A_FRONT, { ...BARCODE_A, first_name: "MORGAN" }, TODAY)).toMatchObject({ verdict: "inconsistent", mismatched: ["name"] });
    // A sibling's barcode: same surname, another first name.
    expect(checkFrontConsistency(LICENCE_A_FRONT, { ...BARCODE_A, first_name: "CASEY" }, TODAY).mismatched).toContain("name");
  });

  it("tolerates one OCR error in a name or number of 6+ characters, after folding O/0, I/1, S/5 ...", () => {
    const misread = [line("SAMPIE"), line("J0RDAN"), line("04/12/1990"), line("54829105", 0.9)];
    expect(checkFrontConsistency(misread, BARCODE_A, TODAY)).toMatchObject({ verdict: "consistent", fields: { name: "match", date_of_birth: "match", document_number: "match" } });
    expect(checkFrontConsistency([line("SAMPLE"), line("JORDAN"), line("S4829106", 0.9)], BARCODE_A, TODAY).fields.document_number).toBe("match");
    expect(checkFrontConsistency([line("SAMPLE"), line("JORDAN"), line("S4821195", 0.9)], BARCODE_A, TODAY).fields.document_number).toBe("mismatch");
    // Short names get no tolerance: RILEY is not RILEX.
    expect(checkFrontConsistency([line("EXAMPLE"), line("RILEX"), line("03/08/2007")], BARCODE_B, TODAY).fields.name).toBe("mismatch");
    // A label glued to the number.
    expect(checkFrontConsistency([line("SAMPLE"), line("JORDAN"), line("DLS4829105", 0.9)], BARCODE_A, TODAY).fields.document_number).toBe("match");
  });

  it("a date one digit away is near (review), never tolerated: 2003 for 2007 makes a 19-year-old 23", () => {
    const front = [line("EXAMPLE"), line("RILEY"), line("03/08/2007"), line("E7654321")];
    expect(checkFrontConsistency(front, { ...BARCODE_B, date_of_birth: "2003-03-08" }, TODAY)).toMatchObject({
      verdict: "uncertain",
      fields: { name: "match", date_of_birth: "near", document_number: "match" },
      mismatched: [],
    });
  });

  it("what the OCR did not read, or read without confidence, is unread, not a mismatch", () => {
    expect(checkFrontConsistency([], BARCODE_A, TODAY)).toEqual({
      verdict: "unreadable",
      fields: { name: "unread", date_of_birth: "unread", document_number: "unread", expiry_date: "unread" },
      mismatched: [],
    });
    // Garbage at low confidence contradicts nothing.
    expect(checkFrontConsistency([line("MORGAN", 0.3), line("01/01/1970", 0.2), line("X9999999", 0.1)], BARCODE_A, TODAY).verdict).toBe("unreadable");
    // A name alone is not enough to vouch for the back.
    expect(checkFrontConsistency([line("SAMPLE"), line("JORDAN")], BARCODE_A, TODAY)).toMatchObject({ verdict: "unreadable", fields: { name: "match" } });
    // Name and date of birth are enough.
    expect(checkFrontConsistency([line("SAMPLE"), line("JORDAN"), line("04/12/1990")], BARCODE_A, TODAY).verdict).toBe("consistent");
  });

  it("tells the date of birth from the card's dates, and a lone issue date is not taken for the expiry", () => {
    // Only the issue date read (in the past): the expiry is unread, not a mismatch.
    const front = [line("SAMPLE"), line("JORDAN"), line("04/12/1990"), line("04/12/2023")];
    expect(checkFrontConsistency(front, BARCODE_A, TODAY).fields).toMatchObject({ date_of_birth: "match", expiry_date: "unread" });
    // A future date can only be the expiry.
    expect(checkFrontConsistency([...front.slice(0, 3), line("09/30/2029")], BARCODE_A, TODAY).fields.expiry_date).toBe("mismatch");
  });
});
