import "server-only";
import fs from "node:fs";
import path from "node:path";
import { hkdfSync, randomBytes } from "node:crypto";
import { ConfigError, env } from "@/lib/config/env";
import { decodeKeyText, keyIdOf, splitKeyList } from "@/lib/config/key-format";
import { constantTimeEqual } from "./secrets";
import { processSlot } from "@/lib/process-slots";

/**
 * The keys for data at rest (docs/operations.md "Rotating the encryption key"): the
 * current ENCRYPTION_KEY seals; it and ENCRYPTION_KEY_PREVIOUS (older keys,
 * comma separated) open. Every sealed value names its key by id.
 */
export type Keyring = {
  current: Buffer;
  currentId: string;
  /** ENCRYPTION_KEY_PREVIOUS, newest first. */
  previous: Buffer[];
  /** Every configured key by its id. */
  byId: ReadonlyMap<string, Buffer>;
};

const keyringSlot = processSlot<Keyring>("keyring");

/** Decodes ENCRYPTION_KEY: 32 bytes as 64 hex characters or base64. */
export function decodeEncryptionKey(raw: string, name = "ENCRYPTION_KEY"): Buffer {
  const key = decodeKeyText(raw);
  if (!key) throw new ConfigError(`${name} must be 32 bytes, as 64 hex characters or base64`);
  return key;
}

/** A keyring of explicit keys (tests, and callers that pass a key). */
export function keyringOf(current: Buffer, previous: Buffer[] = []): Keyring {
  const byId = new Map<string, Buffer>();
  for (const key of [current, ...previous]) {
    const id = keyIdOf(key);
    if (byId.has(id)) throw new ConfigError(`Two encryption keys share the key id ${id}: list each key once`);
    byId.set(id, key);
  }
  return { current, currentId: keyIdOf(current), previous, byId };
}

/**
 * The process's keyring. In production ENCRYPTION_KEY is required; in
 * development a key is generated once into DATA_DIR/encryption.key so the
 * app runs with no setup.
 */
export function keyring(): Keyring {
  if (keyringSlot.value) return keyringSlot.value;
  const config = env();
  let key: Buffer;
  if (config.ENCRYPTION_KEY) {
    key = decodeEncryptionKey(config.ENCRYPTION_KEY);
  } else if (config.isProduction) {
    throw new ConfigError(
      "ENCRYPTION_KEY is required in production (generate one with: openssl rand -hex 32)",
    );
  } else {
    const file = path.join(config.DATA_DIR, "encryption.key");
    fs.mkdirSync(config.DATA_DIR, { recursive: true });
    try {
      fs.writeFileSync(file, randomBytes(32).toString("hex"), { flag: "wx", mode: 0o600 });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
    }
    key = decodeEncryptionKey(fs.readFileSync(file, "utf8").trim());
  }
  const previous = splitKeyList(config.ENCRYPTION_KEY_PREVIOUS).map((k) => decodeEncryptionKey(k, "ENCRYPTION_KEY_PREVIOUS"));
  keyringSlot.value = keyringOf(key, previous);
  return keyringSlot.value;
}

/** The current key: the one that seals. */
export function encryptionKey(): Buffer {
  return keyring().current;
}

const derivedKeysSlot = processSlot<Map<string, Buffer>>("derivedKeys");

function derive(key: Buffer, purpose: string): Buffer {
  return Buffer.from(hkdfSync("sha256", key, "", purpose, 32));
}

/**
 * A 32-byte key for one purpose (HMACs of login codes, CSRF tokens),
 * derived from the current ENCRYPTION_KEY with HKDF-SHA256, so no extra
 * secret is needed and no two purposes share a key.
 */
export function derivedKey(purpose: string): Buffer {
  const keys = (derivedKeysSlot.value ??= new Map());
  let key = keys.get(purpose);
  if (!key) {
    key = derive(encryptionKey(), purpose);
    keys.set(purpose, key);
  }
  return key;
}

/**
 * The purpose's key under every configured key, current first: what checks
 * a short-lived keyed hash (a CSRF token, a login code) or looks up an index
 * made before a rotation finished.
 */
export function derivedKeys(purpose: string): Buffer[] {
  const ring = keyring();
  let lists = derivedLists.get(ring);
  if (!lists) derivedLists.set(ring, (lists = new Map()));
  let keys = lists.get(purpose);
  if (!keys) lists.set(purpose, (keys = [derivedKey(purpose), ...ring.previous.map((k) => derive(k, purpose))]));
  return keys;
}

/** derivedKeys' lists, per keyring (a process's keyring is fixed; tests that swap it get new lists). */
const derivedLists = new WeakMap<Keyring, Map<string, Buffer[]>>();

/** Whether `token` is `mac(key)` under the purpose's key from any configured key (a keyed hash made before a rotation still matches). */
export function matchesUnderAnyDerivedKey(purpose: string, mac: (key: Buffer) => string, token: string): boolean {
  return derivedKeys(purpose).some((key) => constantTimeEqual(mac(key), token));
}

/** The purpose's key under the oldest configured key (lib/crypto/stable-secrets.ts captures it once). */
export function oldestDerivedKey(purpose: string): Buffer {
  const { current, previous } = keyring();
  return derive(previous.at(-1) ?? current, purpose);
}
