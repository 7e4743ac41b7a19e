import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";
import { encryptionKey } from "./encryption-key";

const VERSION = "v1";

/** AES-256-GCM; output `v1.<iv>.<tag>.<ciphertext>` in base64url. */
export function encryptString(plaintext: string, key: Buffer = encryptionKey()): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", key, iv);
  const data = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
  const tag = cipher.getAuthTag();
  return [VERSION, iv, tag, data].map((p) => (typeof p === "string" ? p : p.toString("base64url"))).join(".");
}

export function decryptString(sealed: string, key: Buffer = encryptionKey()): string {
  const [version, iv, tag, data] = sealed.split(".");
  if (version !== VERSION || !iv || !tag || data === undefined) {
    throw new Error("Unrecognised encrypted value");
  }
  const decipher = createDecipheriv("aes-256-gcm", key, Buffer.from(iv, "base64url"));
  decipher.setAuthTag(Buffer.from(tag, "base64url"));
  return Buffer.concat([decipher.update(Buffer.from(data, "base64url")), decipher.final()]).toString("utf8");
}

/** AES-256-GCM for binary payloads (images, templates): `iv(12) | tag(16) | ciphertext`. */
export function sealBytes(plain: Uint8Array, key: Buffer = encryptionKey()): Uint8Array<ArrayBuffer> {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", key, iv);
  const data = Buffer.concat([cipher.update(plain), cipher.final()]);
  return new Uint8Array(Buffer.concat([iv, cipher.getAuthTag(), data]));
}

/** A JSON value sealed as bytes (sealBytes): session artifacts, account proofs. */
export function sealJson(value: unknown): Uint8Array<ArrayBuffer> {
  return sealBytes(Buffer.from(JSON.stringify(value), "utf8"));
}

export function openJson<T>(sealed: Uint8Array): T {
  return JSON.parse(openBytes(sealed).toString("utf8")) as T;
}

export function openBytes(sealed: Uint8Array, key: Buffer = encryptionKey()): Buffer {
  const buf = Buffer.from(sealed);
  if (buf.length < 28) throw new Error("Unrecognised sealed value");
  const decipher = createDecipheriv("aes-256-gcm", key, buf.subarray(0, 12));
  decipher.setAuthTag(buf.subarray(12, 28));
  return Buffer.concat([decipher.update(buf.subarray(28)), decipher.final()]);
}
