import fs from "node:fs";
import path from "node:path";
import { hkdfSync, randomBytes } from "node:crypto";
import { ConfigError, env } from "@/lib/config/env";

const globalForKey = globalThis as unknown as { __svcEncryptionKey?: Buffer };

/** Decodes ENCRYPTION_KEY: 32 bytes as 64 hex characters or base64. */
export function decodeEncryptionKey(raw: string): Buffer {
  const key = /^[0-9a-fA-F]{64}$/.test(raw) ? Buffer.from(raw, "hex") : Buffer.from(raw, "base64");
  if (key.length !== 32) {
    throw new ConfigError("ENCRYPTION_KEY must be 32 bytes, as 64 hex characters or base64");
  }
  return key;
}

/**
 * The AES-256 key for data at rest. In production ENCRYPTION_KEY is required;
 * in development a key is generated once into DATA_DIR/encryption.key so the
 * app runs with no setup.
 */
export function encryptionKey(): Buffer {
  if (globalForKey.__svcEncryptionKey) return globalForKey.__svcEncryptionKey;
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
  globalForKey.__svcEncryptionKey = key;
  return key;
}

const globalForDerived = globalThis as unknown as { __svcDerivedKeys?: Map<string, Buffer> };

/**
 * A 32-byte key for one purpose (HMACs of login codes, CSRF tokens),
 * derived from ENCRYPTION_KEY with HKDF-SHA256, so no extra secret is needed
 * and no two purposes share a key.
 */
export function derivedKey(purpose: string): Buffer {
  const keys = (globalForDerived.__svcDerivedKeys ??= new Map());
  let key = keys.get(purpose);
  if (!key) {
    key = Buffer.from(hkdfSync("sha256", encryptionKey(), "", purpose, 32));
    keys.set(purpose, key);
  }
  return key;
}
