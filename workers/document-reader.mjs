// Identity document reading for the vision worker (workers/vision-worker.mjs
// dispatches the "pdf417", "mrz" and "front_text" ops here). Plain JavaScript that Next.js
// never bundles. Everything loads from node_modules and the repository's
// models/ folder; nothing is fetched from the network.
//
// Nothing here throws at import time: libraries load on first use, and each
// task handler returns { ok: true, value } or { ok: false, error, bad_input }
// (workers/task-error.mjs) so one bad
// image never breaks the thread (nor resets the face models).
import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { packageDir } from "./package-dir.mjs";
import { BadImageError, decodeImage, taskError } from "./task-error.mjs";

const require = createRequire(import.meta.url);

/** Longest side an input image is decoded to: enough for a card or passport page, bounded in memory. */
const MAX_SIDE = 2400;
/** The OCR-B LSTM model (Apache-2.0, from @idpass/smartscanner-capacitor 0.7.7). */
const OCR_MODEL_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), "..", "models", "ocrb");
const OCR_LANGUAGE = "ocrb_int";
const MRZ_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789<";
/** MRZ shapes: lines per format and characters per line. */
const MRZ_SHAPES = [
  { format: "TD3", lines: 2, length: 44 },
  { format: "TD2", lines: 2, length: 36 },
  { format: "TD1", lines: 3, length: 30 },
];


const packageVersion = (name) => JSON.parse(fs.readFileSync(path.join(packageDir(name), "package.json"), "utf8")).version;

// ------------------------------------------------------------------ decoding

/**
 * Decodes image bytes once (EXIF-rotated, longest side capped) into raw
 * pixels; `pipeline()` starts a fresh sharp pipeline from them for each
 * preprocessing variant. Rejects what is not an image.
 */
async function decode(bytes) {
  const sharp = require("sharp");
  const input = Buffer.from(bytes);
  const meta = await sharp(input).metadata().catch(() => null);
  if (!meta?.width || !meta.height) throw new BadImageError("invalid image: the bytes are not a decodable image");
  const { data, info } = await decodeImage(() =>
    sharp(input)
      .rotate()
      .resize({ width: MAX_SIDE, height: MAX_SIDE, fit: "inside", withoutEnlargement: true })
      .raw()
      .toBuffer({ resolveWithObject: true }),
  );
  const raw = { width: info.width, height: info.height, channels: info.channels };
  return { width: info.width, height: info.height, pipeline: () => sharp(data, { raw }) };
}

// ------------------------------------------------------------------ PDF417

let zxingReady;

/** The barcode reader, loaded once per thread (loaded again after a failed load). */
function zxing() {
  zxingReady ??= loadZxing().catch((err) => {
    zxingReady = undefined;
    throw err;
  });
  return zxingReady;
}

async function loadZxing() {
  const wasmBinary = fs.readFileSync(path.join(packageDir("zxing-wasm"), "dist", "reader", "zxing_reader.wasm"));
  const zxing = await import("zxing-wasm/reader");
  await zxing.prepareZXingModule({ overrides: { wasmBinary: new Uint8Array(wasmBinary).buffer }, fireImmediately: true });
  return { readBarcodes: zxing.readBarcodes, model: `zxing-wasm@${zxing.ZXING_WASM_VERSION}` };
}

/** zxing's PDF417 detector tolerates about 1.5 degrees either side of straight (measured on phone photos 2-4 degrees askew): these straighten a card photographed askew, in 2-degree steps near straight. */
const DESKEW_ANGLES = [-2, 2, -4, 4, -6, 6, -8, 8, -12, 12];

/**
 * Preprocessing tried in order until one reads: the image as decoded, then
 * straightened by a few angles, then a contrast-stretched sharpened
 * greyscale, then that upscaled (small barcodes), then a denoising pass with a
 * global threshold.
 */
const PDF417_VARIANTS = [
  { name: "original", prepare: (img) => img, options: {} },
  ...DESKEW_ANGLES.map((angle) => ({ name: `rotated ${angle}deg`, prepare: (img) => img.rotate(angle, { background: "#ffffff" }), options: {} })),
  { name: "grey-normalised-sharpened", prepare: (img) => img.greyscale().normalise().sharpen(), options: {} },
  {
    name: "upscaled",
    prepare: (img, width) => img.greyscale().normalise().resize({ width: Math.min(2 * width, 3200), kernel: "lanczos3" }).sharpen({ sigma: 1.5 }),
    options: {},
  },
  { name: "denoised-global-threshold", prepare: (img) => img.greyscale().normalise().median(3), options: { tryDenoise: true, binarizer: "GlobalHistogram" } },
];

/** RGBA pixels of a sharp pipeline in the ImageData shape zxing-wasm reads. */
async function imageData(pipeline) {
  let { data, info } = await pipeline.ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  if (info.channels !== 4) {
    // sharp keeps greyscale output single-channel: widen it from the raw pixels.
    const raw = { width: info.width, height: info.height, channels: info.channels };
    ({ data, info } = await require("sharp")(data, { raw }).toColourspace("srgb").ensureAlpha().raw().toBuffer({ resolveWithObject: true }));
  }
  if (info.channels !== 4) throw new Error(`expected RGBA pixels, got ${info.channels} channels`);
  return { data: new Uint8ClampedArray(data.buffer, data.byteOffset, data.length), width: info.width, height: info.height, colorSpace: "srgb" };
}

/** First PDF417 symbol in the image: { text, format, variant, ms, model } or null. */
async function readPdf417(bytes) {
  const started = performance.now();
  const { readBarcodes, model } = await zxing();
  const { width, pipeline: decoded } = await decode(bytes);
  for (const variant of PDF417_VARIANTS) {
    const results = await readBarcodes(await imageData(variant.prepare(decoded(), width)), { formats: ["PDF417"], textMode: "Plain", tryHarder: true, tryRotate: true, tryInvert: false, maxNumberOfSymbols: 1, ...variant.options });
    const found = results.find((r) => r.isValid && r.text);
    if (found) return { text: found.text, format: found.format, variant: variant.name, ms: Math.round(performance.now() - started), model };
  }
  return null;
}

// ------------------------------------------------------------------ MRZ

let ocrReady;

/** The MRZ OCR worker, created once per thread (created again after a failure). */
function mrzOcr() {
  ocrReady ??= loadOcr().catch((err) => {
    ocrReady = undefined;
    throw err;
  });
  return ocrReady;
}
let mrzParse;

/** One tesseract.js worker per thread, created once and reused; the model is read from disk, never fetched. */
async function loadOcr() {
  const modelFile = path.join(OCR_MODEL_DIR, `${OCR_LANGUAGE}.traineddata`);
  // tesseract.js fetches from a CDN when a model is missing, and a failed fetch kills the process.
  if (!fs.existsSync(modelFile)) throw new Error(`OCR model missing: ${modelFile}`);
  const { createWorker, OEM, PSM } = require("tesseract.js");
  const worker = await createWorker(OCR_LANGUAGE, OEM.LSTM_ONLY, {
    langPath: OCR_MODEL_DIR,
    gzip: false,
    cacheMethod: "none",
    logger: () => {},
    // Without an errorHandler a failed job is rethrown in a message callback: an uncaught exception that ends the process.
    errorHandler: () => {},
  });
  await worker.setParameters({
    tessedit_char_whitelist: MRZ_ALPHABET,
    tessedit_pageseg_mode: PSM.SINGLE_BLOCK,
    preserve_interword_spaces: "0",
    // The crops carry no resolution; without this tesseract guesses one and warns on stderr.
    user_defined_dpi: "300",
    // Silences tesseract's own diagnostics ("Detected N diacritics") on the process's stderr.
    debug_file: "/dev/null",
  });
  return { worker, model: `tesseract.js@${packageVersion("tesseract.js")}+${OCR_LANGUAGE}` };
}

/**
 * Crops of the page where the MRZ is looked for, tried in order: the bottom
 * part (a passport data page or the back of an ID card, MRZ at the bottom),
 * binarised and unbinarised, then the whole image for documents photographed
 * with a lot of background.
 */
function mrzCrops(width, height) {
  const bottom = (fraction) => ({ left: 0, top: Math.round(height * (1 - fraction)), width, height: Math.round(height * fraction) });
  return [
    { name: "bottom-40%-binarised", region: bottom(0.4), binarise: true },
    { name: "bottom-40%-grey", region: bottom(0.4), binarise: false },
    { name: "bottom-60%-binarised", region: bottom(0.6), binarise: true },
    { name: "whole-grey", region: { left: 0, top: 0, width, height }, binarise: false },
  ];
}

/** Greyscale, contrast-stretched, optionally thresholded PNG of one region, at least 1400 px wide for the OCR. */
async function prepareCrop(image, region, binarise) {
  let pipeline = image.extract(region).greyscale().normalise();
  if (region.width < 1400) pipeline = pipeline.resize({ width: 1400, kernel: "lanczos3" });
  if (binarise) pipeline = pipeline.sharpen().threshold(140);
  return pipeline.png().toBuffer();
}

/** Text lines with their OCR confidence, spaces removed. */
function ocrLines(page) {
  const lines = [];
  for (const block of page.blocks ?? []) {
    for (const paragraph of block.paragraphs) {
      for (const line of paragraph.lines) lines.push({ text: line.text.replace(/\s+/g, ""), confidence: line.confidence / 100 });
    }
  }
  return lines;
}

/**
 * Pads or trims the trailing '<' fillers of a line to the format's length
 * (OCR miscounts long runs of '<'); any other length mismatch is left for the
 * parser to reject.
 */
function fitFillers(text, length) {
  if (text.length < length && text.endsWith("<")) return text.padEnd(length, "<");
  if (text.length > length && /<{2,}$/.test(text)) {
    const trimmed = text.replace(/<+$/, "");
    if (trimmed.length <= length) return trimmed.padEnd(length, "<");
  }
  return text;
}

/**
 * The group of consecutive lines that looks most like an MRZ (2 x 44, 2 x 36
 * or 3 x 30 characters, give or take fillers): for each format the last such
 * group on the page, then the one whose lengths deviate least.
 */
function mrzCandidate(lines) {
  const candidates = [];
  for (const shape of MRZ_SHAPES) {
    const fits = (line) => /^[A-Z0-9<]+$/.test(line.text) && Math.abs(line.text.length - shape.length) <= 4;
    for (let end = lines.length; end >= shape.lines; end--) {
      const group = lines.slice(end - shape.lines, end);
      if (!group.every(fits)) continue;
      candidates.push({
        format: shape.format,
        deviation: group.reduce((sum, l) => sum + Math.abs(l.text.length - shape.length), 0) / group.length,
        lines: group.map((l) => fitFillers(l.text, shape.length)),
        // The weakest line: a well-read number line must not vouch for a misread name line.
        confidence: Math.min(...group.map((l) => l.confidence)),
      });
      break;
    }
  }
  candidates.sort((a, b) => a.deviation - b.deviation || b.lines.length - a.lines.length);
  if (!candidates[0]) return null;
  const { deviation, ...best } = candidates[0];
  return best;
}

/** True when `mrz` parses the lines and every check digit matches. */
async function checkDigitsMatch(lines) {
  mrzParse ??= (await import("mrz")).parse;
  try {
    const result = mrzParse(lines, { autocorrect: true });
    return result.details.filter((d) => d.field?.endsWith("CheckDigit")).every((d) => d.valid);
  } catch {
    return false;
  }
}

/**
 * The MRZ lines of a passport data page or ID card: { lines, format,
 * confidence (0..1, OCR confidence of its least confident line), check_digits_valid,
 * variant, ms, model } or null when no MRZ-shaped text is found.
 */
async function readMrz(bytes) {
  const started = performance.now();
  const { worker, model } = await mrzOcr();
  const { width, height, pipeline: decoded } = await decode(bytes);
  let best = null;
  for (const crop of mrzCrops(width, height)) {
    const image = await prepareCrop(decoded(), crop.region, crop.binarise);
    const { data } = await worker.recognize(image, { rotateAuto: true }, { text: false, blocks: true }).catch((err) => {
      // A failed recognition may leave the OCR worker unusable: start a fresh one next time.
      ocrReady = undefined;
      worker.terminate().catch(() => {});
      throw err;
    });
    const candidate = mrzCandidate(ocrLines(data));
    if (!candidate) continue;
    const valid = await checkDigitsMatch(candidate.lines);
    const scored = { ...candidate, check_digits_valid: valid, variant: crop.name };
    // Valid check digits, or two preprocessings reading the very same lines, end the search.
    const agreed = best !== null && best.lines.join("\n") === scored.lines.join("\n");
    if (valid) return { ...scored, ms: Math.round(performance.now() - started), model };
    if (agreed) return { ...(best.confidence >= scored.confidence ? best : scored), ms: Math.round(performance.now() - started), model };
    if (!best || scored.confidence > best.confidence) best = scored;
  }
  return best ? { ...best, ms: Math.round(performance.now() - started), model } : null;
}

// ------------------------------------------------------------------ front (visual zone)

/**
 * The English LSTM model (tesseract's tessdata "best_int", Apache-2.0) from
 * the npm package @tesseract.js-data/eng 1.0.0 (pinned): read from disk,
 * gzipped as shipped, never fetched.
 */
const FRONT_LANGUAGE = "eng";
let frontOcrReady;

/** The front's OCR worker, created once per thread (created again after a failure). */
function frontOcr() {
  frontOcrReady ??= loadFrontOcr().catch((err) => {
    frontOcrReady = undefined;
    throw err;
  });
  return frontOcrReady;
}

async function loadFrontOcr() {
  const langPath = path.join(packageDir("@tesseract.js-data/eng"), "4.0.0_best_int");
  // As for the MRZ model: a missing file would make tesseract.js fetch it from a CDN.
  if (!fs.existsSync(path.join(langPath, `${FRONT_LANGUAGE}.traineddata.gz`))) throw new Error(`OCR model missing: ${langPath}/${FRONT_LANGUAGE}.traineddata.gz`);
  const { createWorker, OEM, PSM } = require("tesseract.js");
  const worker = await createWorker(FRONT_LANGUAGE, OEM.LSTM_ONLY, {
    langPath,
    gzip: true,
    cacheMethod: "none",
    logger: () => {},
    errorHandler: () => {},
  });
  await worker.setParameters({
    // No character list: a letter outside any list (Ł, Ñ, lower case) must come out as itself with its own
    // confidence, not as the nearest listed letter read with confidence.
    tessedit_pageseg_mode: PSM.AUTO,
    user_defined_dpi: "300",
    debug_file: "/dev/null",
  });
  return { worker, model: `tesseract.js@${packageVersion("tesseract.js")}+${FRONT_LANGUAGE}@${packageVersion("@tesseract.js-data/eng")}` };
}

/**
 * The whole front is read: where a card prints its fields (right of a
 * portrait 26-41 % of its width, below it on a vertical card, in another
 * order elsewhere) is the layout's business, and the comparison
 * (lib/documents/document-consistency.ts) looks for the barcode's or MRZ's
 * values in whatever text is there instead of expecting fields in a place.
 * Small print is upscaled so a card photographed from a distance still gives
 * the OCR letters about 30 px high.
 */
const FRONT_MIN_WIDTH = 1800;
/** Lines of text with their words and confidences (0..1). */
function frontLines(page) {
  const lines = [];
  for (const block of page.blocks ?? []) {
    for (const paragraph of block.paragraphs) {
      for (const line of paragraph.lines) {
        const words = line.words.map((w) => ({ text: w.text.trim(), confidence: Math.round(w.confidence) / 100 })).filter((w) => w.text);
        if (words.length) lines.push({ text: words.map((w) => w.text).join(" "), confidence: Math.round(line.confidence) / 100, words });
      }
    }
  }
  return lines;
}

/**
 * The printed text of a card's front: { lines: [{ text, confidence, words }],
 * variant, ms, model }. Field extraction and the comparison with the barcode
 * or MRZ happen in lib/documents/ (pure, unit-tested).
 */
async function readFrontText(bytes) {
  const started = performance.now();
  const { worker, model } = await frontOcr();
  const { width, pipeline: decoded } = await decode(bytes);
  let image = decoded().greyscale().normalise();
  if (width < FRONT_MIN_WIDTH) image = image.resize({ width: FRONT_MIN_WIDTH, kernel: "lanczos3" });
  const { data } = await worker.recognize(await image.png().toBuffer(), {}, { text: false, blocks: true }).catch((err) => {
    frontOcrReady = undefined;
    worker.terminate().catch(() => {});
    throw err;
  });
  return { lines: frontLines(data), variant: "whole", ms: Math.round(performance.now() - started), model };
}

// ------------------------------------------------------------------ task handlers

/**
 * Loads the barcode reader and both OCR models in this thread (the vision
 * pool's warm-up), so a session's first document does not pay ~1.5 s of
 * model loading.
 */
export async function warmDocumentReaders() {
  await Promise.all([zxing(), mrzOcr(), frontOcr()]);
}

/** Piscina task "pdf417": { ok: true, value: reading | null } or { ok: false, error }. */
export async function pdf417Task(image) {
  try {
    return { ok: true, value: await readPdf417(image) };
  } catch (err) {
    return taskError(err);
  }
}

/** Piscina task "mrz": { ok: true, value: reading | null } or { ok: false, error }. */
export async function mrzTask(image) {
  try {
    return { ok: true, value: await readMrz(image) };
  } catch (err) {
    return taskError(err);
  }
}

/** Piscina task "front_text": { ok: true, value: reading } or { ok: false, error }. */
export async function frontTextTask(image) {
  try {
    return { ok: true, value: await readFrontText(image) };
  } catch (err) {
    return taskError(err);
  }
}
