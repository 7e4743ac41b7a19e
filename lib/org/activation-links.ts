import { env } from "@/lib/config/env";
import { hashSecret, randomToken } from "@/lib/crypto/secrets";

/**
 * Activation links (docs/organization-api.md): `PUBLIC_BASE_URL/activate/<token>`,
 * where the invited person signs in with the invited email and activates
 * their seat with a live face. A member has at most one live link: only the
 * token's SHA-256 is kept, on the member row, so issuing a new link makes
 * the previous one invalid. A link lives ACTIVATION_LINK_DAYS days.
 */
export const ACTIVATION_LINK_DAYS = 7;
export const ACTIVATION_TOKEN_PATTERN = /^act_[A-Za-z0-9_-]{43}$/;

export type ActivationLink = { token: string; tokenHash: string; url: string; expiresAt: Date };

export const activationUrl = (token: string) => `${env().PUBLIC_BASE_URL}/activate/${token}`;

export function newActivationLink(at: Date): ActivationLink {
  const token = randomToken("act_", 32);
  return { token, tokenHash: hashSecret(token), url: activationUrl(token), expiresAt: new Date(at.getTime() + ACTIVATION_LINK_DAYS * 86_400_000) };
}

/** The hash a presented token is looked up by (null for anything that cannot be a token). */
export function activationTokenHash(token: string): string | null {
  return ACTIVATION_TOKEN_PATTERN.test(token) ? hashSecret(token) : null;
}
