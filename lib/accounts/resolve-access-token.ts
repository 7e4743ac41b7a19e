import type { App } from "@/generated/prisma/client";
import { ApiError } from "@/lib/http/api-error";

/**
 * `svc_access_token` on session creation (spec 2.2, 5): binds the session to
 * the connected user's account. Access tokens are issued by the OpenID
 * Connect provider; until it issues any, no token can be valid, so every
 * token is answered 401 `invalid_token` (never accepted unchecked).
 */
export async function resolveAccountFromAccessToken(_app: App, token: string): Promise<string> {
  if (!/^[\x21-\x7e]+$/.test(token)) {
    throw new ApiError("invalid_token", { message: "svc_access_token is malformed" });
  }
  throw new ApiError("invalid_token", { message: "svc_access_token is unknown or expired" });
}
