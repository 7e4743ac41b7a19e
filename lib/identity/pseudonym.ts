import { createHmac } from "node:crypto";
import { derivedKey } from "@/lib/crypto/encryption-key";

/**
 * The per-project pseudonym of an account (spec 2.4): an HMAC of the app and
 * account ids under a key derived from ENCRYPTION_KEY. Stable for one
 * project; two projects get unrelated values, so they cannot correlate a
 * person through it.
 */
export function projectPseudonym(appId: string, accountId: string): string {
  const mac = createHmac("sha256", derivedKey("identity-pseudonym")).update(`${appId}\n${accountId}`).digest();
  return `psn_${mac.subarray(0, 16).toString("base64url")}`;
}
