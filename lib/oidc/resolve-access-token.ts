import type { App } from "@/generated/prisma/client";
import { ApiError } from "@/lib/http/api-error";
import { lookupAccessToken } from "./access-token";

/**
 * `svc_access_token` on session creation (spec 2.2, 5): binds the session to
 * the connected user's account. It must be a live access token of the OpenID
 * Connect provider (not expired, its grant not revoked) issued to this same
 * app; otherwise 401 `invalid_token`. Returns the account id (the svc_id).
 */
export async function resolveAccountFromAccessToken(app: App, token: string): Promise<string> {
  if (!/^[\x21-\x7e]+$/.test(token)) {
    throw new ApiError("invalid_token", { message: "svc_access_token is malformed" });
  }
  const info = await lookupAccessToken(token);
  if (!info) throw new ApiError("invalid_token", { message: "svc_access_token is unknown, expired or revoked" });
  if (info.appId !== app.id) {
    throw new ApiError("invalid_token", { message: "svc_access_token was issued to another app" });
  }
  return info.accountId;
}
