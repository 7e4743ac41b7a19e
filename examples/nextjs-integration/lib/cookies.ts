import { createHash } from "node:crypto";
import { EncryptJWT, jwtDecrypt, type JWTPayload } from "jose";
import { cookies } from "next/headers";
import { config } from "./config";

/**
 * Cookies this app seals (JWE, dir + A256GCM, keyed by SESSION_SECRET): the
 * browser can neither read nor change them. HttpOnly, SameSite=Lax (a
 * cross-site POST carries none of them), Secure whenever APP_URL is https.
 */
function key(): Uint8Array {
  return createHash("sha256").update(config().sessionSecret).digest();
}

export async function setSealedCookie(name: string, value: JWTPayload, maxAgeSeconds: number): Promise<void> {
  const sealed = await new EncryptJWT(value)
    .setProtectedHeader({ alg: "dir", enc: "A256GCM" })
    .setIssuedAt()
    .setExpirationTime(`${maxAgeSeconds}s`)
    .encrypt(key());
  (await cookies()).set(name, sealed, {
    httpOnly: true,
    sameSite: "lax",
    secure: config().appUrl.protocol === "https:",
    path: "/",
    maxAge: maxAgeSeconds,
  });
}

/** The cookie's content, or null when it is missing, expired or was not sealed by this app. */
export async function readSealedCookie<T extends JWTPayload>(name: string): Promise<T | null> {
  const sealed = (await cookies()).get(name)?.value;
  if (!sealed) return null;
  try {
    return (await jwtDecrypt(sealed, key())).payload as T;
  } catch {
    return null;
  }
}

export async function deleteCookie(name: string): Promise<void> {
  (await cookies()).delete(name);
}
