import { describe, expect, it } from "vitest";
import { checkFrontConsistency, type FrontLine, type ZoneValues } from "@/lib/documents/document-consistency";
import { readFrontDates } from "@/lib/documents/front-dates";
import { nameKey, numberKey } from "@/lib/documents/front-text";

/**
 * The front/back cross-check on OCR lines shaped as the worker returns them.
 * The cards below are made up for these tests (other layouts, languages and
 * formats than any fixture), to show the rules hold beyond the cards they
 * were written on.
 */
const TODAY = new Date("2026-11-21T12:00:00Z");
const line = (text: string, confidence = 0.95): FrontLine => ({ text, confidence, words: text.split(" ").map((w) => ({ text: w, confidence })) });
const zone = (values: Partial<ZoneValues>): ZoneValues => ({ first_name: null, last_name: null, date_of_birth: null, expiry_date: null, document_number: null, ...values });
const isoDates = (lines: FrontLine[]) => readFrontDates(lines).map((d) => d.readings);

describe("reading the dates a card prints, in its own format", () => {
  it("reads numeric dates day or month first as the card's own dates tell, and both ways when they do not", () => {
    // 23.04.1981 cannot be month first, so the card writes the day first: 05.06.2031 is 5 June.
    expect(isoDates([line("23.04.1981"), line("05.06.2031")])).toEqual([["1981-04-23"], ["2031-06-05"]]);
    // 04/23/1981 cannot be day first: the card writes the month first.
    expect(isoDates([line("04/23/1981"), line("05/06/2031")])).toEqual([["1981-04-23"], ["2031-05-06"]]);
    // Nothing tells: each date is both readings, never a guess.
    expect(isoDates([line("05 06 2031")])).toEqual([["2031-05-06", "2031-06-05"]]);
  });

  it("reads year-first dates, month names of many languages, bilingual months and OCR's digit-like letters", () => {
    expect(isoDates([line("1979/11/02"), line("2030-11-02")])).toEqual([["1979-11-02"], ["2030-11-02"]]);
    expect(isoDates([line("1979-NOV-02")])).toEqual([["1979-11-02"]]);
    expect(isoDates([line("02 DEZ 1979"), line("02 GIU 2031"), line("7 MAJ/MAY 2030"), line("12 MRT 1999")])).toEqual([["1979-12-02"], ["2031-06-02"], ["2030-05-07"], ["1999-03-12"]]);
    expect(isoDates([line("2 décembre 1979"), line("Dec 02, 1979")])).toEqual([["1979-12-02"], ["1979-12-02"]]);
    expect(isoDates([line("O2/l1/199O")])).toEqual([["1990-02-11", "1990-11-02"]]);
  });

  it("never takes an impossible date, and reads eight digits without separators as a date that can only agree", () => {
    expect(isoDates([line("13/45/2031"), line("31.02.1990")])).toEqual([]);
    const [compact] = readFrontDates([line("02111979")]);
    expect(compact).toMatchObject({ compact: true });
    expect(compact!.readings).toContain("1979-11-02");
  });
});

describe("the comparison keys", () => {
  it("folds the spellings ICAO 9303 allows for one letter, accents, apostrophes and hyphens", () => {
    expect(nameKey("KÖRNER-STRAẞE")).toBe(nameKey("KOERNER<STRASSE"));
    expect(nameKey("KORNER")).toBe(nameKey("KOERNER"));
    expect(nameKey("SØNDERGÅRD")).toBe(nameKey("SOENDERGAARD"));
    expect(nameKey("D'ARCY")).toBe(nameKey("DARCY"));
    expect(nameKey("IBÁÑEZ")).toBe(nameKey("IBANEZ"));
    expect(numberKey("K-274 118.90")).toBe(numberKey("K27411890"));
  });
});

describe("the front against the barcode or MRZ", () => {
  // A made-up card in two languages, name on two lines, dates day first.
  const FRONT = [
    line("REPUBLIK MUSTERLAND / REPUBLIC OF MUSTERLAND"),
    line("Familienname / Surname"),
    line("KÖRNER-WEISS"),
    line("Vornamen / Given names"),
    line("ANNELIESE MARIA"),
    line("Geburtsdatum / Date of birth"),
    line("23.04.1981 MUSTERSTADT"),
    line("Ablaufdatum / Expiry 05.06.2031"),
    line("Nr. K7Y 204 118"),
  ];
  const MRZ = zone({ first_name: "ANNELIESE MARIA", last_name: "KOERNER WEISS", date_of_birth: "1981-04-23", expiry_date: "2031-06-05", document_number: "K7Y204118" });

  it("agrees when the values are on the front, whatever else it prints (labels, places, other languages)", () => {
    expect(checkFrontConsistency(FRONT, MRZ, TODAY)).toEqual({
      verdict: "consistent",
      fields: { name: "match", date_of_birth: "match", document_number: "match", expiry_date: "match" },
      mismatched: [],
    });
  });

  it("finds a name in any order, split over lines, glued by OCR, or printed with an apostrophe", () => {
    const oneLine = [line("DE LA CRUZ-O'HARA,MARISOL T"), line("DOB 03/30/1977")];
    expect(checkFrontConsistency(oneLine, zone({ first_name: "MARISOL", last_name: "DE LA CRUZ-OHARA", date_of_birth: "1977-03-30" }), TODAY).verdict).toBe("consistent");
    const twoSurnames = [line("APELLIDOS"), line("ZUBIZARRETA"), line("ORMAETXEA"), line("NOMBRE"), line("IÑIGO"), line("30 03 1977")];
    expect(checkFrontConsistency(twoSurnames, zone({ first_name: "INIGO", last_name: "ZUBIZARRETA ORMAETXEA", date_of_birth: "1977-03-30" }), TODAY).verdict).toBe("consistent");
  });

  it("matches a name the MRZ or barcode cut short to the printed name it begins, only when it was cut", () => {
    const front = [line("SURNAME"), line("ZUBIZARRETA"), line("GIVEN NAMES"), line("MAXIMILIANO"), line("30 03 1977")];
    const cut = zone({ first_name: "MAXIMIL", last_name: "ZUBIZARRETA", date_of_birth: "1977-03-30" });
    expect(checkFrontConsistency(front, { ...cut, truncated: { last_name: true, first_name: true } }, TODAY).verdict).toBe("consistent");
    expect(checkFrontConsistency(front, cut, TODAY)).toMatchObject({ verdict: "uncertain", fields: { name: "not_found" } });
  });

  it("tolerates one OCR error in a name word of five letters or more, two from ten", () => {
    const misread = [line("K0RNER-WEIS"), line("ANNELlESE"), line("23.04.1981")];
    expect(checkFrontConsistency(misread, MRZ, TODAY).fields.name).toBe("match");
  });

  it("never declines for a name it cannot find: a person looks (review)", () => {
    const other = zone({ ...MRZ, last_name: "BRANDT" });
    expect(checkFrontConsistency(FRONT, other, TODAY)).toEqual({
      verdict: "uncertain",
      fields: { name: "not_found", date_of_birth: "match", document_number: "match", expiry_date: "match" },
      mismatched: [],
    });
  });

  it("declines a date of birth read with confidence that is another date, and names the field", () => {
    expect(checkFrontConsistency(FRONT, zone({ ...MRZ, date_of_birth: "1985-09-14" }), TODAY)).toMatchObject({ verdict: "inconsistent", mismatched: ["date_of_birth"] });
  });

  it("sends a date one digit away to review, and an unconfident or compact other date to review, never to a decline", () => {
    expect(checkFrontConsistency(FRONT, zone({ ...MRZ, date_of_birth: "1984-04-23" }), TODAY)).toMatchObject({ verdict: "uncertain", fields: { date_of_birth: "near" } });
    const faint = FRONT.map((l) => (l.text.startsWith("23.04") ? line(l.text, 0.5) : l));
    expect(checkFrontConsistency(faint, zone({ ...MRZ, date_of_birth: "1985-09-14" }), TODAY)).toMatchObject({ verdict: "uncertain", fields: { date_of_birth: "not_found" } });
    const compact = [line("KORNER-WEISS"), line("ANNELIESE"), line("23041981"), line("K7Y204118")];
    expect(checkFrontConsistency(compact, zone({ ...MRZ, date_of_birth: "1985-09-14" }), TODAY).mismatched).toEqual([]);
  });

  it("declines another number of the same shape read with confidence on a legible front; a misread or another kind of number is no evidence", () => {
    expect(checkFrontConsistency(FRONT, zone({ ...MRZ, document_number: "K3P918372" }), TODAY)).toMatchObject({ verdict: "inconsistent", mismatched: ["document_number"] });
    // Two characters off: a misread of the real number, not another number.
    expect(checkFrontConsistency(FRONT, zone({ ...MRZ, document_number: "K7Y204173" }), TODAY).fields.document_number).toBe("not_found");
    // A number of another shape (a postcode, a date) is not the document number.
    expect(checkFrontConsistency(FRONT, zone({ ...MRZ, document_number: "58132904" }), TODAY).fields.document_number).toBe("not_found");
    // Nothing else on the front agrees: the number alone cannot decline.
    const numberOnly = [line("K3P 918 372")];
    expect(checkFrontConsistency(numberOnly, MRZ, TODAY).fields.document_number).toBe("not_found");
  });

  it("finds a number printed in groups, with a label glued in front, or with one OCR error", () => {
    const grouped = [line("KORNER-WEISS ANNELIESE"), line("ID 613 902 475"), line("DLP436-512-88-569-0")];
    expect(checkFrontConsistency(grouped, zone({ ...MRZ, document_number: "613902475" }), TODAY).fields.document_number).toBe("match");
    expect(checkFrontConsistency(grouped, zone({ ...MRZ, document_number: "P436512885690" }), TODAY).fields.document_number).toBe("match");
    expect(checkFrontConsistency([line("K7Y2O4118")], MRZ, TODAY).fields.document_number).toBe("match");
  });

  it("declines an expiry read with confidence that is another date", () => {
    expect(checkFrontConsistency(FRONT, zone({ ...MRZ, expiry_date: "2029-01-17" }), TODAY)).toMatchObject({ verdict: "inconsistent", mismatched: ["expiry_date"] });
  });

  it("is unreadable when the front gave no confident text, and never consistent on the name alone", () => {
    expect(checkFrontConsistency([], MRZ, TODAY)).toEqual({
      verdict: "unreadable",
      fields: { name: "unread", date_of_birth: "unread", document_number: "unread", expiry_date: "unread" },
      mismatched: [],
    });
    expect(checkFrontConsistency([line("BRANDT", 0.3), line("01.01.1970", 0.2)], MRZ, TODAY).verdict).toBe("unreadable");
    expect(checkFrontConsistency([line("KORNER-WEISS"), line("ANNELIESE")], MRZ, TODAY)).toMatchObject({ verdict: "uncertain", fields: { name: "match" } });
  });
});
