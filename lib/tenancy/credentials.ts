import { hashSecret, randomHex, randomToken } from "@/lib/crypto/secrets";

/**
 * Credential formats. Every secret has a readable prefix (so leaked keys are
 * recognisable and scanners can match them) and is stored only as a hash.
 */
export function newApiKey(environment: "test" | "production") {
  const key = randomToken(`sk_${environment === "production" ? "live" : "test"}_`, 24);
  return { key, hash: hashSecret(key), prefix: key.slice(0, 12) };
}

export function newClientCredentials(environment: "test" | "production") {
  const clientId = `cli_${randomHex(12)}`;
  const secret = randomToken(`cs_${environment === "production" ? "live" : "test"}_`, 32);
  return { clientId, secret, secretHash: hashSecret(secret) };
}

export function newWebhookSecret() {
  return randomToken("whsec_", 32);
}
