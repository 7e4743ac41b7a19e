import { createCipheriv, randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { ConfigError, parseEnv } from "@/lib/config/env";
import {
  decryptString,
  encryptString,
  openBytes,
  openJson,
  sealBytes,
  sealedBytesKeyId,
  sealedStringKeyId,
  sealJson,
  SEALED_BYTES_MAGIC,
  UnknownEncryptionKeyError,
} from "@/lib/crypto/encryption";
import { derivedKey, derivedKeys, keyring } from "@/lib/crypto/encryption-key";
import { keyIdOf } from "@/lib/config/key-format";
import { NOT_SEALED, SEALED_COLUMNS } from "@/lib/operations/sealed-columns";
import { resetProcessSlots } from "@/lib/process-slots";

/** Encryption key ids and rotation (docs/operations.md "Rotating the encryption key"). */
const K1 = randomBytes(32);
const K2 = randomBytes(32);
const K3 = randomBytes(32);

const saved = { key: process.env.ENCRYPTION_KEY, previous: process.env.ENCRYPTION_KEY_PREVIOUS };

/** Configures this process as a server would be: ENCRYPTION_KEY and ENCRYPTION_KEY_PREVIOUS. */
function useKeys(current: Buffer, previous: Buffer[] = []) {
  process.env.ENCRYPTION_KEY = current.toString("hex");
  if (previous.length) process.env.ENCRYPTION_KEY_PREVIOUS = previous.map((k) => k.toString("base64")).join(", ");
  else delete process.env.ENCRYPTION_KEY_PREVIOUS;
  resetProcessSlots("env", "keyring", "derivedKeys");
}

afterEach(() => {
  for (const [name, value] of [["ENCRYPTION_KEY", saved.key], ["ENCRYPTION_KEY_PREVIOUS", saved.previous]] as const) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  resetProcessSlots("env", "keyring", "derivedKeys");
});

/** A string as sealed before key ids: `v1.<iv>.<tag>.<ct>`. */
function sealV1String(plain: string, key: Buffer): string {
  const iv = randomBytes(12);
  const c = createCipheriv("aes-256-gcm", key, iv);
  const data = Buffer.concat([c.update(plain, "utf8"), c.final()]);
  return ["v1", iv, c.getAuthTag(), data].map((p) => (typeof p === "string" ? p : p.toString("base64url"))).join(".");
}

/** Bytes as sealed before key ids: `iv | tag | ct`. */
function sealV1Bytes(plain: Buffer, key: Buffer, iv = randomBytes(12)): Buffer {
  const c = createCipheriv("aes-256-gcm", key, iv);
  const data = Buffer.concat([c.update(plain), c.final()]);
  return Buffer.concat([iv, c.getAuthTag(), data]);
}

describe("sealed values carry the id of their key", () => {
  it("the current key seals: strings as v2.<kid>, bytes behind a header with the kid", () => {
    useKeys(K2, [K1]);
    const kid = keyIdOf(K2);
    expect(kid).toMatch(/^[0-9a-f]{8}$/);
    expect(keyring().currentId).toBe(kid);
    const s = encryptString("whsec_x");
    expect(s.startsWith(`v2.${kid}.`)).toBe(true);
    expect(sealedStringKeyId(s)).toBe(kid);
    expect(decryptString(s)).toBe("whsec_x");
    const b = sealJson({ a: 1 });
    expect(Buffer.from(b).subarray(0, 3).equals(SEALED_BYTES_MAGIC)).toBe(true);
    expect(sealedBytesKeyId(b)).toBe(kid);
    expect(openJson(b)).toEqual({ a: 1 });
    // Only the current key seals; an old key alone no longer opens it.
    expect(() => decryptString(s, K1)).toThrow(UnknownEncryptionKeyError);
  });

  it("a value sealed under a previous key opens while that key is in ENCRYPTION_KEY_PREVIOUS, and not after", () => {
    useKeys(K1);
    const s = encryptString("secret under K1");
    const b = sealBytes(Buffer.from("image under K1"));
    useKeys(K2, [K3, K1]);
    expect(decryptString(s)).toBe("secret under K1");
    expect(openBytes(b).toString()).toBe("image under K1");
    useKeys(K2);
    expect(() => decryptString(s)).toThrow(UnknownEncryptionKeyError);
    expect(() => decryptString(s)).toThrow(new RegExp(`sealed under encryption key ${keyIdOf(K1)}.*ENCRYPTION_KEY_PREVIOUS`));
    expect(() => openBytes(b)).toThrow(UnknownEncryptionKeyError);
  });

  it("values sealed before key ids (v1) open under the current or a previous key", () => {
    useKeys(K2, [K1]);
    expect(decryptString(sealV1String("old under K1", K1))).toBe("old under K1");
    expect(decryptString(sealV1String("old under K2", K2))).toBe("old under K2");
    expect(openBytes(sealV1Bytes(Buffer.from("bytes under K1"), K1)).toString()).toBe("bytes under K1");
    expect(sealedStringKeyId(sealV1String("x", K1))).toBeNull();
    expect(sealedBytesKeyId(sealV1Bytes(Buffer.from("x"), K1))).toBeNull();
    // Under a key that is configured nowhere: refused.
    expect(() => decryptString(sealV1String("lost", K3))).toThrow(/did not open under any configured encryption key/);
    expect(() => openBytes(sealV1Bytes(Buffer.from("lost"), K3))).toThrow(/did not open under any configured encryption key/);
  });

  it("an old value whose random IV happens to start like a header still opens", () => {
    useKeys(K2, [K1]);
    const iv = Buffer.concat([SEALED_BYTES_MAGIC, Buffer.from(keyIdOf(K2), "hex"), randomBytes(5)]);
    const old = sealV1Bytes(Buffer.from("a lucky old value"), K1, iv);
    expect(sealedBytesKeyId(old)).toBe(keyIdOf(K2));
    expect(openBytes(old).toString()).toBe("a lucky old value");
  });

  it("tampering is detected, kid included", () => {
    useKeys(K2, [K1]);
    const s = encryptString("secret");
    const [, kid, iv, tag, ct] = s.split(".");
    expect(() => decryptString(["v2", kid, iv, tag, ct!.slice(0, -2) + (ct!.endsWith("A") ? "BB" : "AA")].join("."))).toThrow();
    // The same ciphertext relabelled with the other configured key's id: refused.
    expect(() => decryptString(["v2", keyIdOf(K1), iv, tag, ct].join("."))).toThrow();
    expect(() => decryptString("v3.abc")).toThrow(/Unrecognised/);
  });

  it("an explicit key seals and opens under that key alone", () => {
    useKeys(K2);
    const s = encryptString("x", K3);
    expect(sealedStringKeyId(s)).toBe(keyIdOf(K3));
    expect(decryptString(s, K3)).toBe("x");
    expect(() => decryptString(s)).toThrow(UnknownEncryptionKeyError);
    expect(openBytes(sealBytes(Buffer.from("y"), K3), K3).toString()).toBe("y");
  });

  it("derived keys: the current key makes them, the previous ones still check them", () => {
    useKeys(K1);
    const old = derivedKey("svc login code");
    useKeys(K2, [K1]);
    const keys = derivedKeys("svc login code");
    expect(keys).toHaveLength(2);
    expect(keys[0]!.equals(derivedKey("svc login code"))).toBe(true);
    expect(keys[0]!.equals(old)).toBe(false);
    expect(keys[1]!.equals(old)).toBe(true);
  });
});

describe("ENCRYPTION_KEY_PREVIOUS configuration", () => {
  const hex = (k: Buffer) => k.toString("hex");
  it("takes one or more 32-byte keys, comma separated, hex or base64", () => {
    const env = parseEnv({ ENCRYPTION_KEY: hex(K2), ENCRYPTION_KEY_PREVIOUS: ` ${hex(K1)} , ${K3.toString("base64")} ` });
    expect(env.ENCRYPTION_KEY_PREVIOUS).toBeDefined();
    expect(parseEnv({ ENCRYPTION_KEY: hex(K2), ENCRYPTION_KEY_PREVIOUS: "" }).ENCRYPTION_KEY_PREVIOUS).toBeUndefined();
  });
  it.each([
    ["a malformed key", () => ({ ENCRYPTION_KEY: hex(K2), ENCRYPTION_KEY_PREVIOUS: `${hex(K1)},not-a-key` }), /ENCRYPTION_KEY_PREVIOUS: 1 of its keys is not 32 bytes/],
    ["the current key again", () => ({ ENCRYPTION_KEY: hex(K2), ENCRYPTION_KEY_PREVIOUS: K2.toString("base64") }), /ENCRYPTION_KEY_PREVIOUS: repeats ENCRYPTION_KEY/],
    ["one key twice", () => ({ ENCRYPTION_KEY: hex(K2), ENCRYPTION_KEY_PREVIOUS: `${hex(K1)},${K1.toString("base64")}` }), /lists the same key twice/],
    ["a malformed current key", () => ({ ENCRYPTION_KEY: "short", NODE_ENV: "production" }), /ENCRYPTION_KEY: must be 32 bytes/],
  ])("refuses %s", (_name, source, message) => {
    expect(() => parseEnv(source())).toThrow(ConfigError);
    expect(() => parseEnv(source())).toThrow(message);
  });
});

/**
 * The columns of prisma/schema.prisma that look sealed: type `Bytes`, or a
 * field or column name with "sealed", "encrypted" or "cipher". Each must be
 * in SEALED_COLUMNS (re-sealed by keys:rotate) or NOT_SEALED (with a reason).
 */
function sealedLookingColumns(schema: string): { columns: string[]; all: Set<string> } {
  const columns: string[] = [];
  const all = new Set<string>();
  for (const model of schema.matchAll(/^model \w+ \{([\s\S]*?)^\}/gm)) {
    const body = model[1]!;
    const table = /@@map\("([^"]+)"\)/.exec(body)?.[1];
    if (!table) throw new Error(`a model without @@map: ${body.slice(0, 80)}`);
    for (const line of body.split("\n")) {
      const field = /^\s+(\w+)\s+(\w+)(\[\])?\??(.*)$/.exec(line);
      if (!field || field[1]!.startsWith("@@")) continue;
      const [, name, type, , rest] = field;
      const column = /@map\("([^"]+)"\)/.exec(rest!)?.[1] ?? name!;
      all.add(`${table}.${column}`);
      if (type === "Bytes" || /sealed|encrypt|cipher/i.test(`${name} ${column}`)) columns.push(`${table}.${column}`);
    }
  }
  return { columns, all };
}

describe("the registry of sealed columns (lib/operations/sealed-columns.ts)", () => {
  const schema = fs.readFileSync(path.join(import.meta.dirname, "..", "..", "prisma", "schema.prisma"), "utf8");
  const { columns, all } = sealedLookingColumns(schema);
  const registered = new Set(SEALED_COLUMNS.map((c) => `${c.table}.${c.column}`));

  it("lists every column of the schema that looks sealed (or says why it is not)", () => {
    expect(columns).toContain("session_artifacts.sealed");
    expect(columns).toContain("webhook_endpoints.secret_encrypted");
    const missing = columns.filter((c) => !registered.has(c) && !(c in NOT_SEALED));
    expect(missing, "sealed-looking columns keys:rotate would not re-seal: add them to SEALED_COLUMNS or NOT_SEALED").toEqual([]);
  });

  it("names only columns that exist", () => {
    for (const c of SEALED_COLUMNS.filter((c) => !c.external)) expect(all, `${c.table}.${c.column}`).toContain(`${c.table}.${c.column}`);
    for (const c of SEALED_COLUMNS.filter((c) => !c.external)) expect(all, `${c.table}.${c.id}`).toContain(`${c.table}.${c.id}`);
    for (const name of Object.keys(NOT_SEALED)) expect(all).toContain(name);
  });
});
