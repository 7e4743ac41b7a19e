import { randomToken } from "@/lib/crypto/secrets";

/**
 * Opaque values the provider hands out. Only their SHA-256 is stored
 * (lib/crypto/secrets.ts hashSecret); the prefix tells them apart in logs
 * and support requests. Access tokens are opaque too (not JWTs): every use
 * looks them up, so revocation takes effect at once.
 */
export const newAuthorizationCode = () => randomToken("ac_", 32);
export const newAccessToken = () => randomToken("at_", 32);
export const newRefreshToken = () => randomToken("rt_", 32);

/** An instant for plain SQL, as an ISO string: cast it with `$n::timestamptz`. */
export const sqlTime = (d: Date) => d.toISOString();
