import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openBytes } from "@/lib/crypto/encryption";
import { keyIdOf } from "@/lib/config/key-format";
import { openSearchCode, openTemplate, sealedSearchCode, sealTemplate } from "@/lib/faces/sealed-faces";
import { searchCode } from "@/lib/faces/search-code";
import { normalise } from "@/lib/faces/templates";
import { randomTemplate, seededRandom } from "../support/synthetic-faces";
import { resetProcessSlots } from "@/lib/process-slots";

/** Gallery templates and search codes at rest (lib/faces/sealed-faces.ts; docs/operations.md "Secrets and personal data at rest"). */
const KEY = randomBytes(32);
const saved = process.env.ENCRYPTION_KEY;
const resetKeyring = () => {
  resetProcessSlots("env", "keyring");
};
beforeAll(() => {
  process.env.ENCRYPTION_KEY = KEY.toString("hex");
  resetKeyring();
});
afterAll(() => {
  if (saved === undefined) delete process.env.ENCRYPTION_KEY;
  else process.env.ENCRYPTION_KEY = saved;
  resetKeyring();
});

describe("sealed gallery faces", () => {
  const template = normalise(Array.from(randomTemplate(seededRandom(7))));

  it("a template opens to its float32 values, bit for bit, and its clear bytes are nowhere in the sealed value", () => {
    const sealed = Buffer.from(sealTemplate(template));
    expect(Array.from(openTemplate(sealed))).toEqual(template.map(Math.fround));
    const floats = Buffer.alloc(4096);
    template.forEach((v, i) => floats.writeFloatLE(v, i * 4));
    expect(sealed.includes(floats.subarray(2048, 2080))).toBe(false);
    expect(sealed.subarray(3, 7).toString("hex")).toBe(keyIdOf(KEY));
  });

  it("a search code opens to the template's code, also from inside a larger buffer (as the database driver hands it)", () => {
    const sealed = Buffer.from(sealedSearchCode(template));
    expect(sealed.includes(searchCode(template).subarray(40, 72))).toBe(false);
    const padded = Buffer.concat([randomBytes(5), sealed, randomBytes(3)]);
    expect(openSearchCode(padded.subarray(5, 5 + sealed.length)).equals(searchCode(template))).toBe(true);
  });

  it("a changed byte, a template of the wrong size, or another key: nothing opens", () => {
    const sealed = Buffer.from(sealTemplate(template));
    sealed[sealed.length - 1]! ^= 1;
    expect(() => openTemplate(sealed)).toThrow();
    expect(() => sealTemplate(template.slice(1))).toThrow(/1024 values/);
    expect(() => openBytes(sealTemplate(template), randomBytes(32))).toThrow();
  });
});
