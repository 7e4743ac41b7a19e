import { createHmac } from "node:crypto";
import { stableSecret } from "@/lib/crypto/stable-secrets";

/**
 * The per-project pseudonym of an account (spec 2.4): an HMAC of the app and
 * account ids under a key derived from ENCRYPTION_KEY and kept across its
 * rotations (lib/crypto/stable-secrets.ts). Stable for one project; two
 * projects get unrelated values, so they cannot correlate a person through it.
 */
export async function projectPseudonym(appId: string, accountId: string): Promise<string> {
  return pseudonymUnder(await stableSecret("identity-pseudonym"), appId, accountId);
}

/** The pseudonym under a given pseudonym key. */
export function pseudonymUnder(key: Buffer, appId: string, accountId: string): string {
  const mac = createHmac("sha256", key).update(`${appId}\n${accountId}`).digest();
  return `psn_${mac.subarray(0, 16).toString("base64url")}`;
}
