import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
// @ts-expect-error plain .mjs module of the vision worker, no type declarations
import { graphModelToOnnx, onnxConverterVersion } from "../../workers/graph-model-to-onnx.mjs";
// @ts-expect-error plain .mjs module of the vision worker, no type declarations
import { cachedOnnxModel, onnxFileVersion } from "../../workers/onnx-model-cache.mjs";
import { loadFaceModelAsTheWorkerDoes } from "../support/face-models";

/**
 * The face models are converted to ONNX once (workers/onnx-model-cache.mjs):
 * the vision worker loads a file only when the manifest's SHA-256 vouches
 * for its bytes, and converts again anything missing or altered. Here with
 * the real conversion of human's liveness model.
 */
const sha256 = (bytes: Uint8Array) => crypto.createHash("sha256").update(bytes).digest("hex");
type Cached = { bytes: Uint8Array; file: string; from: "cache" | "converted" };

let dir: string;
let convert: () => Uint8Array;
let derivedFrom: Record<string, unknown>;
let conversions = 0;
const warnings: string[] = [];
const load = (options: { dir?: string; derivedFrom?: Record<string, unknown> } = {}): Cached =>
  cachedOnnxModel({ dir: options.dir ?? dir, name: "liveness", derivedFrom: options.derivedFrom ?? derivedFrom, convert, warn: (m: string) => warnings.push(m) });
const manifest = () => JSON.parse(fs.readFileSync(path.join(dir, "manifest.json"), "utf8")).files;

beforeAll(async () => {
  dir = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "onnx-cache-")), "vision-models");
  const { model, nodes, source } = await loadFaceModelAsTheWorkerDoes("liveness");
  derivedFrom = { model: "liveness", ...source, converter: onnxConverterVersion() };
  convert = () => {
    conversions++;
    return graphModelToOnnx(model, nodes);
  };
}, 60_000);
afterAll(() => fs.rmSync(path.dirname(dir), { recursive: true, force: true }));

describe("the ONNX model files", () => {
  it("first start: converts, writes the file named by model and version, and records its SHA-256", () => {
    const first = load();
    expect(first.from).toBe("converted");
    expect(conversions).toBe(1);
    expect(first.file).toBe(`liveness.${onnxFileVersion(derivedFrom)}.onnx`);
    expect(fs.readFileSync(path.join(dir, first.file)).equals(Buffer.from(first.bytes))).toBe(true);
    expect(manifest()[first.file]).toMatchObject({ model: "liveness", sha256: sha256(first.bytes), bytes: first.bytes.byteLength, derived_from: derivedFrom });
    expect(fs.readdirSync(dir).sort()).toEqual([first.file, "manifest.json"].sort()); // no temporary file left
    expect(warnings).toEqual([]);
  });

  it("next start: loads the file without converting", () => {
    const second = load();
    expect(second.from).toBe("cache");
    expect(conversions).toBe(1);
    expect(sha256(second.bytes)).toBe(manifest()[second.file].sha256);
    expect(warnings).toEqual([]);
  });

  it("detects a file altered on disk, says so, converts again and never hands over the altered bytes", () => {
    const { file } = load();
    const good = fs.readFileSync(path.join(dir, file));
    const altered = Buffer.from(good);
    altered[altered.length >> 1]! ^= 0x01;
    fs.writeFileSync(path.join(dir, file), altered);
    const third = load();
    expect(third.from).toBe("converted");
    expect(conversions).toBe(2);
    expect(Buffer.from(third.bytes).equals(good)).toBe(true);
    expect(fs.readFileSync(path.join(dir, file)).equals(good)).toBe(true);
    expect(warnings).toEqual([expect.stringMatching(new RegExp(`${file}: SHA-256 [0-9a-f]{64} differs from the manifest's ${sha256(good)}; converting liveness again`))]);
    warnings.length = 0;
  });

  it("converts again a file the manifest does not list, and one that is missing", () => {
    const { file } = load();
    fs.writeFileSync(path.join(dir, "manifest.json"), JSON.stringify({ files: {} }));
    expect(load().from).toBe("converted");
    expect(warnings).toEqual([expect.stringContaining("not listed in the manifest")]);
    expect(load().from).toBe("cache");
    fs.rmSync(path.join(dir, file));
    expect(load().from).toBe("converted");
    expect(load().from).toBe("cache");
    expect(conversions).toBe(4);
    warnings.length = 0;
  });

  it("keeps another version apart: a changed converter or model gives a new file, the old one stays untouched", () => {
    const { file: current } = load();
    const changed = load({ derivedFrom: { ...derivedFrom, converter: { ...(derivedFrom.converter as object), code_sha256: "0".repeat(64) } } });
    expect(changed.from).toBe("converted");
    expect(changed.file).not.toBe(current);
    expect(Object.keys(manifest()).sort()).toEqual([current, changed.file].sort());
    expect(load().from).toBe("cache");
  });

  it("still answers with the converted bytes when the directory cannot be written, and says so", () => {
    const blocked = path.join(path.dirname(dir), "a-file");
    fs.writeFileSync(blocked, "");
    const result = load({ dir: path.join(blocked, "vision-models") });
    expect(result.from).toBe("converted");
    expect(sha256(result.bytes)).toBe(manifest()[result.file].sha256);
    expect(warnings).toEqual([expect.stringContaining("could not keep liveness's ONNX file")]);
  });
});
