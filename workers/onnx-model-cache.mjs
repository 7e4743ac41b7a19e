// The face models' ONNX files, converted once and kept on disk: each file is
// named by its model and a version (a hash of what its bytes derive from:
// the model's files, the converter's code), and `manifest.json` beside them
// records each file's SHA-256. A load reads the bytes, checks them against
// the manifest and hands over exactly the bytes it checked; a missing file,
// a file the manifest does not list, or bytes whose SHA-256 differs are
// converted again (and said so on stderr), never loaded as they are.
//
// Several vision threads (and processes) may start at once on an empty
// directory: each converts and writes through a temporary file renamed into
// place, so a reader only ever sees a whole file. Conversion is
// deterministic (the same inputs give the same bytes), so racing writers
// write the same thing; an entry lost between two manifest writers only
// costs one conversion more at the next start.
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { threadId } from "node:worker_threads";

const MANIFEST = "manifest.json";

const sha256 = (bytes) => crypto.createHash("sha256").update(bytes).digest("hex");

/** Where the ONNX files live unless told otherwise: DATA_DIR/vision-models (DATA_DIR defaults to .data, as lib/config/env.ts). */
export function defaultOnnxCacheDir() {
  return path.join(path.resolve(process.env.DATA_DIR ?? ".data"), "vision-models");
}

/** A short version naming everything the converted bytes derive from. */
export function onnxFileVersion(derivedFrom) {
  return sha256(JSON.stringify(derivedFrom)).slice(0, 16);
}

function readManifest(dir) {
  try {
    const manifest = JSON.parse(fs.readFileSync(path.join(dir, MANIFEST), "utf8"));
    return manifest && typeof manifest.files === "object" && manifest.files ? manifest : { files: {} };
  } catch {
    return { files: {} };
  }
}

/** Writes through a temporary file renamed into place: readers see the old file or the new one, never half of one. */
function writeWhole(file, bytes) {
  const temporary = `${file}.${process.pid}-${threadId}.tmp`;
  fs.writeFileSync(temporary, bytes);
  fs.renameSync(temporary, file);
}

/** Why the file on disk cannot be used, or null when it can (then `bytes` are the checked bytes). */
function checkedFile(dir, file) {
  const entry = readManifest(dir).files[file];
  let bytes;
  try {
    bytes = fs.readFileSync(path.join(dir, file));
  } catch {
    return { problem: "missing" };
  }
  if (!entry) return { problem: "not listed in the manifest" };
  if (sha256(bytes) !== entry.sha256) return { problem: `SHA-256 ${sha256(bytes)} differs from the manifest's ${entry.sha256}` };
  return { bytes: new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength) };
}

/**
 * The ONNX bytes of one model: from `dir` when the manifest vouches for the
 * file, else converted now and written there.
 * @param {object} options
 * @param {string} options.dir the cache directory (created when missing)
 * @param {string} options.name the model's name ("faceres")
 * @param {object} options.derivedFrom what the bytes derive from (hashes of the model's files, the converter's version); recorded in the manifest, hashed into the file's name
 * @param {() => Uint8Array} options.convert makes the bytes
 * @param {(message: string) => void} [options.warn] told when a file on disk is not used, or cannot be written
 * @returns {{ bytes: Uint8Array, file: string, from: "cache" | "converted" }}
 */
export function cachedOnnxModel({ dir, name, derivedFrom, convert, warn = (m) => process.stderr.write(`${m}\n`) }) {
  const file = `${name}.${onnxFileVersion(derivedFrom)}.onnx`;
  const found = checkedFile(dir, file);
  if (found.bytes) return { bytes: found.bytes, file, from: "cache" };
  if (found.problem !== "missing") warn(`vision: ${path.join(dir, file)}: ${found.problem}; converting ${name} again`);
  const bytes = convert();
  try {
    fs.mkdirSync(dir, { recursive: true });
    writeWhole(path.join(dir, file), bytes);
    const manifest = readManifest(dir);
    manifest.files[file] = { model: name, sha256: sha256(bytes), bytes: bytes.byteLength, derived_from: derivedFrom, written_at: new Date().toISOString() };
    writeWhole(path.join(dir, MANIFEST), `${JSON.stringify(manifest, null, 2)}\n`);
  } catch (err) {
    warn(`vision: could not keep ${name}'s ONNX file in ${dir} (${err instanceof Error ? err.message : err}); it will be converted again at the next start`);
  }
  return { bytes, file, from: "converted" };
}
