import fs from "node:fs";
import path from "node:path";
import sharp from "sharp";
import { afterAll, describe, expect, it } from "vitest";
import { readDocument, type DocumentReading } from "@/lib/documents/read-document";
import { ApiError } from "@/lib/http/api-error";
import { analyseFaces, closeVisionPool, cosineSimilarity, readMrz, readPdf417 } from "@/lib/vision/pool";

/**
 * Identity documents read through the vision worker pool (barcode, OCR and
 * face models offline), on the committed specimen images of
 * tests/fixtures/documents/ (see its README.md for what each one shows).
 */
const DIR = path.join(process.cwd(), "tests", "fixtures", "documents");
const fixture = (name: string) => new Uint8Array(fs.readFileSync(path.join(DIR, name)));
const TODAY = new Date("2026-11-21T12:00:00Z");

/** A cell of @vladmandic/human's face grid (MIT): row 0 is person A, row 1 col 6 is person B. */
const FACE_GRID = "node_modules/@vladmandic/human/assets/screenshot-facematch.jpg";
async function cellEmbedding(col: number, row: number): Promise<number[]> {
  const image = await sharp(FACE_GRID)
    .extract({ left: Math.round(col * 106.67) + 2, top: 280 + row * 110 + 2, width: 100, height: 100 })
    .resize(256)
    .jpeg()
    .toBuffer();
  return (await analyseFaces(image)).faces[0]!.embedding!;
}

const LICENCE_A_FIELDS = {
  first_name: "JORDAN",
  last_name: "SAMPLE",
  full_name: "JORDAN SAMPLE",
  date_of_birth: "1990-04-12",
  expiry_date: "2031-04-12",
  document_number: "S4829105",
  issuing_country: "USA",
  issuing_state: "CA",
  sex: "M",
};

const PASSPORT_A_FIELDS = {
  first_name: "JORDAN",
  last_name: "SAMPLE",
  full_name: "JORDAN SAMPLE",
  date_of_birth: "1990-04-12",
  expiry_date: "2034-06-30",
  document_number: "X81452736",
  issuing_country: "USA",
  nationality: "USA",
  sex: "M",
};

const timings: Record<string, DocumentReading["timings_ms"]> = {};
afterAll(async () => {
  console.log("document reading timings (ms):", JSON.stringify(timings, null, 1));
  await closeVisionPool();
});

async function read(name: string, input: Parameters<typeof readDocument>[0]) {
  const reading = await readDocument({ today: TODAY, ...input });
  timings[name] = reading.timings_ms;
  return reading;
}

describe("driving licences (PDF417 on the back)", () => {
  it.each([
    ["clean", "licence-a-front.jpg", "licence-a-back.jpg"],
    ["phone photo (blurred, rotated, JPEG 55)", "licence-a-front-degraded.jpg", "licence-a-back-degraded.jpg"],
  ])("reads every field of the %s licence, fully trusted, with its portrait", async (variant, front, back) => {
    const reading = await read(`licence A ${variant}`, { documentType: "driving_licence", front: fixture(front), back: fixture(back) });
    expect(reading).toMatchObject({
      document_type: "driving_licence",
      source: "pdf417",
      fields: LICENCE_A_FIELDS,
      checks: { read: true, check_digits_valid: null, not_expired: true, portrait_found: true, front_matches_back: true },
      confidence: 1,
      problems: [],
      consistency: { verdict: "consistent", fields: { name: "match", date_of_birth: "match", document_number: "match", expiry_date: "match" }, mismatched: [] },
      models: { faces: expect.stringMatching(/^human@/), pdf417: expect.stringMatching(/^zxing-wasm@/), ocr: null, front_ocr: expect.stringMatching(/^tesseract\.js@.*\+eng@1\.0\.0$/) },
    });
    expect(reading.portrait!.embedding).toHaveLength(1024);
  });

  it("reads the under-21 holder's birth date (19 on the test day)", async () => {
    const reading = await read("licence B", { documentType: "driving_licence", front: fixture("licence-b-front.jpg"), back: fixture("licence-b-back.jpg") });
    expect(reading.fields).toMatchObject({ first_name: "RILEY", last_name: "EXAMPLE", date_of_birth: "2007-03-08", sex: "F", document_number: "E7654321" });
    expect(reading.confidence).toBe(1);
  });

  it("reads an expired licence but says it has expired", async () => {
    const reading = await read("licence A expired", { documentType: "driving_licence", front: fixture("licence-a-expired-front.jpg"), back: fixture("licence-a-expired-back.jpg") });
    expect(reading.fields.expiry_date).toBe("2025-04-12");
    expect(reading.checks).toMatchObject({ read: true, not_expired: false });
    expect(reading.problems).toEqual(["expired"]);
  });

  it("reports nothing read, rather than guessing, when the back has no barcode", async () => {
    const reading = await read("licence A, front sent twice", { documentType: "driving_licence", front: fixture("licence-a-front.jpg"), back: fixture("licence-a-front.jpg") });
    expect(reading).toMatchObject({ source: null, confidence: 0, checks: { read: false, not_expired: false, portrait_found: true } });
    expect(Object.values(reading.fields).every((v) => v === null)).toBe(true);
    expect(reading.problems).toContain("barcode_not_found");
  });
});

describe("passports (MRZ on the data page)", () => {
  it.each([
    ["clean", "passport-a.jpg"],
    ["phone photo (blurred, rotated, JPEG 55)", "passport-a-degraded.jpg"],
  ])("reads the %s passport's MRZ with valid check digits", async (variant, file) => {
    const reading = await read(`passport A ${variant}`, { documentType: "passport", front: fixture(file) });
    expect(reading).toMatchObject({
      source: "mrz",
      fields: PASSPORT_A_FIELDS,
      // A passport's visual zone and MRZ are on one page: no front/back cross-check.
      checks: { read: true, check_digits_valid: true, not_expired: true, portrait_found: true, front_matches_back: null },
      consistency: null,
      problems: [],
      models: { ocr: expect.stringMatching(/^tesseract\.js@.*ocrb_int$/) },
    });
    expect(reading.confidence).toBeGreaterThan(0.9);
  });

  it("detects the broken check digit and keeps the read under review confidence", async () => {
    const reading = await read("passport A bad check digit", { documentType: "passport", front: fixture("passport-a-bad-check-digit.jpg") });
    expect(reading.checks).toMatchObject({ read: true, check_digits_valid: false });
    expect(reading.problems).toEqual(expect.arrayContaining(["mrz_check_digit_mismatch:birthDate", "mrz_check_digit_mismatch:composite"]));
    expect(reading.confidence).toBeLessThanOrEqual(0.5);
  });
});

describe("ID cards", () => {
  it("falls back to the TD1 MRZ on the back when there is no barcode", async () => {
    const reading = await read("id card B (TD1)", { documentType: "id_card", front: fixture("id-card-b-front.jpg"), back: fixture("id-card-b-back.jpg") });
    expect(reading).toMatchObject({
      source: "mrz",
      fields: { first_name: "RILEY", last_name: "EXAMPLE", date_of_birth: "2007-03-08", expiry_date: "2032-03-08", document_number: "C03847261", sex: "F" },
      checks: { read: true, check_digits_valid: true, not_expired: true, portrait_found: true, front_matches_back: true },
    });
    expect(reading.timings_ms.pdf417).not.toBeNull(); // the barcode was looked for first
  });
});

describe("the front against the back (printed fields vs barcode or MRZ)", () => {
  it("person A's ID card: the front agrees with its MRZ", async () => {
    const reading = await read("id card A (TD1)", { documentType: "id_card", front: fixture("id-card-a-front.jpg"), back: fixture("id-card-a-back.jpg") });
    expect(reading).toMatchObject({ fields: { first_name: "JORDAN", date_of_birth: "1990-04-12" }, checks: { front_matches_back: true }, consistency: { verdict: "consistent" } });
  });

  it("person A's licence front with person B's back is inconsistent, naming the fields (never their values)", async () => {
    const reading = await read("licence A front + B back", { documentType: "driving_licence", front: fixture("licence-a-front.jpg"), back: fixture("licence-b-back.jpg") });
    expect(reading.fields.first_name).toBe("RILEY"); // the barcode is read as before...
    expect(reading.checks).toMatchObject({ read: true, portrait_found: true, front_matches_back: false });
    // A name that is not found is never the evidence (review); the dates and the number read with confidence are.
    expect(reading.consistency).toMatchObject({ verdict: "inconsistent", fields: { name: "not_found", date_of_birth: "mismatch", expiry_date: "mismatch" } });
    expect(reading.consistency!.mismatched).toEqual(expect.arrayContaining(["date_of_birth", "expiry_date"]));
    expect(reading.problems).toEqual(expect.arrayContaining(["front_mismatch:date_of_birth", "front_mismatch:expiry_date"]));
    expect(JSON.stringify(reading.consistency)).not.toMatch(/JORDAN|SAMPLE|RILEY|EXAMPLE|1990|2007/);
  });

  it("person B's ID card front with person A's MRZ back is inconsistent", async () => {
    const reading = await read("id card B front + A back", { documentType: "id_card", front: fixture("id-card-b-front.jpg"), back: fixture("id-card-a-back.jpg") });
    expect(reading.source).toBe("mrz");
    expect(reading.consistency).toMatchObject({ verdict: "inconsistent", fields: { name: "not_found", date_of_birth: "mismatch", expiry_date: "mismatch" } });
    expect(reading.checks.front_matches_back).toBe(false);
  });

  it("a single altered field (the barcode's date of birth) is inconsistent on that field alone", async () => {
    const reading = await read("licence A, altered DOB", { documentType: "driving_licence", front: fixture("licence-a-front.jpg"), back: fixture("licence-a-back-altered-dob.jpg") });
    expect(reading.fields.date_of_birth).toBe("1985-04-12");
    expect(reading.consistency).toMatchObject({ verdict: "inconsistent", mismatched: ["date_of_birth"], fields: { name: "match", document_number: "match", expiry_date: "match" } });
  });

  it("a birth year moved by one digit is not tolerated as an OCR error: uncertain", async () => {
    const reading = await read("licence B, DOB one digit", { documentType: "driving_licence", front: fixture("licence-b-front.jpg"), back: fixture("licence-b-back-altered-dob-one-digit.jpg") });
    expect(reading.fields.date_of_birth).toBe("2003-03-08");
    expect(reading.consistency).toMatchObject({ verdict: "uncertain", fields: { date_of_birth: "near" }, mismatched: [] });
    expect(reading.checks.front_matches_back).toBeNull();
    expect(reading.problems).toContain("front_uncertain:date_of_birth");
  });

  it("a front with a portrait but no readable text is unreadable, not inconsistent", async () => {
    const portraitOnly = await sharp({ create: { width: 1012, height: 638, channels: 3, background: { r: 230, g: 236, b: 244 } } })
      .composite([{ input: await sharp(FACE_GRID).extract({ left: 2, top: 282, width: 100, height: 100 }).resize(300).png().toBuffer(), left: 44, top: 130 }])
      .jpeg()
      .toBuffer();
    const reading = await read("portrait-only front", { documentType: "driving_licence", front: new Uint8Array(portraitOnly), back: fixture("licence-a-back.jpg") });
    expect(reading.checks).toMatchObject({ read: true, portrait_found: true, front_matches_back: null });
    expect(reading.consistency).toMatchObject({ verdict: "unreadable", mismatched: [] });
    expect(reading.problems).toContain("front_unreadable");
  });
});

describe("document portraits", () => {
  it("match other photos of the same person and not someone else", async () => {
    const [licence, passport, licenceB] = await Promise.all([
      readDocument({ documentType: "driving_licence", front: fixture("licence-a-front.jpg"), back: fixture("licence-a-back.jpg"), today: TODAY }),
      readDocument({ documentType: "passport", front: fixture("passport-a.jpg"), today: TODAY }),
      readDocument({ documentType: "driving_licence", front: fixture("licence-b-front.jpg"), back: fixture("licence-b-back.jpg"), today: TODAY }),
    ]);
    const [selfieA, selfieA2, photoB] = [await cellEmbedding(1, 0), await cellEmbedding(4, 0), await cellEmbedding(6, 1)];
    for (const reading of [licence, passport]) {
      expect(cosineSimilarity(reading.portrait!.embedding, selfieA)).toBeGreaterThan(0.6);
      expect(cosineSimilarity(reading.portrait!.embedding, selfieA2)).toBeGreaterThan(0.6);
      expect(cosineSimilarity(reading.portrait!.embedding, photoB)).toBeLessThan(0.55);
    }
    expect(cosineSimilarity(licenceB.portrait!.embedding, selfieA)).toBeLessThan(0.55);
  });
});

describe("input that is not a document photo", () => {
  it("rejects random bytes as invalid_image before any model runs", async () => {
    const random = new Uint8Array(4096).map(() => Math.floor(Math.random() * 256));
    const error = await readDocument({ documentType: "passport", front: random }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ code: "invalid_image", data: { field: "front" } });
  });

  it("names the back when only the back is not an image", async () => {
    const error = await readDocument({ documentType: "driving_licence", front: fixture("licence-a-front.jpg"), back: new TextEncoder().encode("not an image") }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "invalid_image", data: { field: "back" } });
  });

  it("the worker reads no barcode and no MRZ on a plain photo, and keeps serving", async () => {
    const photo = await sharp(FACE_GRID).jpeg().toBuffer();
    expect(await readPdf417(photo)).toBeNull();
    expect(await readMrz(await sharp(FACE_GRID).extract({ left: 0, top: 280, width: 600, height: 220 }).jpeg().toBuffer())).toBeNull();
    expect((await readPdf417(fixture("licence-a-back.jpg")))?.text).toMatch(/^@\n\x1e\rANSI 636014/);
  });
});
