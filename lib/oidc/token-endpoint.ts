import { ApiError } from "@/lib/http/api-error";
import { authenticateTokenClient } from "./client-auth";
import { authorizationCodeGrant } from "./grants/authorization-code";
import { refreshTokenGrant } from "./grants/refresh-token";
import type { Reply } from "@/lib/http/core/reply";
import { json, readParams, type OidcRequest } from "./http";

const GRANTS = {
  authorization_code: authorizationCodeGrant,
  refresh_token: refreshTokenGrant,
} as const;

/**
 * POST /api/auth/oidc/token: `application/json` (spec 4.5) or
 * `application/x-www-form-urlencoded` (RFC 6749). The client authenticates
 * first; then one grant, one file (lib/oidc/grants/). Success is top-level
 * token JSON (spec 2.9); errors are the spec envelope.
 */
export async function handleTokenRequest(req: OidcRequest): Promise<Reply> {
  const params = await readParams(req, "body");
  const grantType = params.get("grant_type");
  if (!grantType) throw new ApiError("invalid_request", { message: "grant_type is required" });
  if (!Object.hasOwn(GRANTS, grantType)) {
    throw new ApiError("unsupported_grant_type", {
      message: `grant_type must be authorization_code or refresh_token, not ${grantType}`,
    });
  }
  const grant = GRANTS[grantType as keyof typeof GRANTS];
  const app = await authenticateTokenClient(req, params);
  return json(await grant(app, params));
}
