import { hkdfSync } from "node:crypto";

/**
 * The text form of an encryption key (ENCRYPTION_KEY, ENCRYPTION_KEY_PREVIOUS):
 * 32 bytes as 64 hex characters or base64. Null when the text is neither.
 * No imports from the app, so lib/config/env.ts can validate with it.
 */
export function decodeKeyText(raw: string): Buffer | null {
  const text = raw.trim();
  const key = /^[0-9a-fA-F]{64}$/.test(text) ? Buffer.from(text, "hex") : Buffer.from(text, "base64");
  return key.length === 32 ? key : null;
}

/** ENCRYPTION_KEY_PREVIOUS: one or more keys, comma separated, newest first. */
export function splitKeyList(raw: string | undefined): string[] {
  return (raw ?? "").split(",").map((s) => s.trim()).filter(Boolean);
}

/**
 * The key id a sealed value carries (docs/operations.md "Rotating the encryption key"):
 * 8 hex characters, HKDF-SHA256 of the key with its own label, so it names
 * the key without revealing anything usable about it.
 */
export function keyIdOf(key: Buffer): string {
  return Buffer.from(hkdfSync("sha256", key, "", "svc encryption key id", 4)).toString("hex");
}
