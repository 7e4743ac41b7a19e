import "server-only";
import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";
import { keyring, keyringOf, type Keyring } from "./encryption-key";

/**
 * AES-256-GCM for data at rest. Every value names the key that sealed it
 * (docs/operations.md "Rotating the encryption key"), so ENCRYPTION_KEY can be rotated:
 * the current key seals, the current and ENCRYPTION_KEY_PREVIOUS keys open.
 *
 * Strings: `v2.<kid>.<iv>.<tag>.<ciphertext>` (base64url parts, `v2.<kid>`
 * authenticated as additional data). Bytes: `"sv" 0x02 | kid(4) | iv(12) |
 * tag(16) | ciphertext`, the first 7 bytes authenticated as additional data.
 * The key id is 8 hex characters (lib/config/key-format.ts keyIdOf).
 *
 * Values sealed before key ids (strings `v1.<iv>.<tag>.<ct>`, bytes
 * `iv(12) | tag(16) | ct`) still open: each configured key is tried, current
 * first. `svc keys:rotate` re-seals them (lib/operations/rotate-keys.ts).
 *
 * A `key` argument seals or opens under that key alone (tests, tools).
 */
const IV = 12;
const TAG = 16;
const KID_BYTES = 4;
/** "sv" then the format version. */
export const SEALED_BYTES_MAGIC = Buffer.from([0x73, 0x76, 0x02]);
const HEADER = SEALED_BYTES_MAGIC.length + KID_BYTES;

/** A sealed value names a key that is not configured. */
export class UnknownEncryptionKeyError extends Error {
  constructor(readonly keyId: string) {
    super(
      `This value was sealed under encryption key ${keyId}, which is neither ENCRYPTION_KEY nor in ENCRYPTION_KEY_PREVIOUS ` +
        `(docs/operations.md "Rotating the encryption key")`,
    );
    this.name = "UnknownEncryptionKeyError";
  }
}

function ringOf(key: Buffer | undefined): Keyring {
  return key ? keyringOf(key) : keyring();
}

function gcmSeal(key: Buffer, plain: Uint8Array, aad: Buffer | null) {
  const iv = randomBytes(IV);
  const cipher = createCipheriv("aes-256-gcm", key, iv);
  if (aad) cipher.setAAD(aad);
  const data = Buffer.concat([cipher.update(plain), cipher.final()]);
  return { iv, tag: cipher.getAuthTag(), data };
}

function gcmOpen(key: Buffer, iv: Buffer, tag: Buffer, data: Buffer, aad: Buffer | null): Buffer {
  const decipher = createDecipheriv("aes-256-gcm", key, iv);
  if (aad) decipher.setAAD(aad);
  decipher.setAuthTag(tag);
  const plain = decipher.update(data);
  // final() checks the tag; GCM returns no further bytes from it (no copy: the index opens many small values).
  const rest = decipher.final();
  return rest.length === 0 ? plain : Buffer.concat([plain, rest]);
}

/** Opens a value sealed before key ids: the first configured key that authenticates it, current first. */
function openWithoutKeyId(ring: Keyring, iv: Buffer, tag: Buffer, data: Buffer): Buffer {
  let failure: unknown;
  for (const key of [ring.current, ...ring.previous]) {
    try {
      return gcmOpen(key, iv, tag, data, null);
    } catch (err) {
      failure = err;
    }
  }
  throw new Error(`A sealed value did not open under any configured encryption key: ${(failure as Error).message}`);
}

/** `v2.<kid>.<iv>.<tag>.<ciphertext>` in base64url under the current key (or `key`). */
export function encryptString(plaintext: string, key?: Buffer): string {
  const ring = ringOf(key);
  const header = `v2.${ring.currentId}`;
  const { iv, tag, data } = gcmSeal(ring.current, Buffer.from(plaintext, "utf8"), Buffer.from(header));
  return [header, iv.toString("base64url"), tag.toString("base64url"), data.toString("base64url")].join(".");
}

export function decryptString(sealed: string, key?: Buffer): string {
  const ring = ringOf(key);
  const parts = sealed.split(".");
  const b = (s: string) => Buffer.from(s, "base64url");
  if (parts[0] === "v2" && parts.length === 5 && /^[0-9a-f]{8}$/.test(parts[1]!)) {
    const [, kid, iv, tag, data] = parts as [string, string, string, string, string];
    const k = ring.byId.get(kid);
    if (!k) throw new UnknownEncryptionKeyError(kid);
    return gcmOpen(k, b(iv), b(tag), b(data), Buffer.from(`v2.${kid}`)).toString("utf8");
  }
  if (parts[0] === "v1" && parts.length === 4) {
    return openWithoutKeyId(ring, b(parts[1]!), b(parts[2]!), b(parts[3]!)).toString("utf8");
  }
  throw new Error("Unrecognised encrypted value");
}

/** AES-256-GCM for binary payloads (images, templates): `"sv" 0x02 | kid | iv | tag | ciphertext`. */
export function sealBytes(plain: Uint8Array, key?: Buffer): Uint8Array<ArrayBuffer> {
  const ring = ringOf(key);
  const header = Buffer.concat([SEALED_BYTES_MAGIC, Buffer.from(ring.currentId, "hex")]);
  const { iv, tag, data } = gcmSeal(ring.current, plain, header);
  return new Uint8Array(Buffer.concat([header, iv, tag, data]));
}

/** A JSON value sealed as bytes (sealBytes): session artifacts, account proofs. */
export function sealJson(value: unknown): Uint8Array<ArrayBuffer> {
  return sealBytes(Buffer.from(JSON.stringify(value), "utf8"));
}

export function openJson<T>(sealed: Uint8Array): T {
  return JSON.parse(openBytes(sealed).toString("utf8")) as T;
}

export function openBytes(sealed: Uint8Array, key?: Buffer): Buffer {
  const ring = ringOf(key);
  const buf = Buffer.from(sealed.buffer, sealed.byteOffset, sealed.byteLength); // a view: only read
  if (buf.length < IV + TAG) throw new Error("Unrecognised sealed value");
  const v1 = () => openWithoutKeyId(ring, buf.subarray(0, IV), buf.subarray(IV, IV + TAG), buf.subarray(IV + TAG));
  const kid = sealedBytesKeyId(buf);
  if (kid === null) return v1();
  const k = ring.byId.get(kid);
  try {
    if (!k) throw new UnknownEncryptionKeyError(kid);
    return gcmOpen(k, buf.subarray(HEADER, HEADER + IV), buf.subarray(HEADER + IV, HEADER + IV + TAG), buf.subarray(HEADER + IV + TAG), buf.subarray(0, HEADER));
  } catch (err) {
    // One value sealed before key ids in 16 million starts like a header by chance: try it as one.
    try {
      return v1();
    } catch {
      throw err;
    }
  }
}

/** The key id of sealed bytes in the current format; null for any other bytes (a value sealed before key ids). */
export function sealedBytesKeyId(sealed: Uint8Array): string | null {
  const buf = Buffer.from(sealed.buffer, sealed.byteOffset, sealed.byteLength);
  if (buf.length < HEADER + IV + TAG || buf[0] !== SEALED_BYTES_MAGIC[0] || buf[1] !== SEALED_BYTES_MAGIC[1] || buf[2] !== SEALED_BYTES_MAGIC[2]) return null;
  return buf.toString("hex", SEALED_BYTES_MAGIC.length, HEADER);
}

/** The key id of a sealed string; null for one sealed before key ids (`v1.`) or not sealed at all. */
export function sealedStringKeyId(sealed: string): string | null {
  const m = /^v2\.([0-9a-f]{8})\./.exec(sealed);
  return m ? m[1]! : null;
}
