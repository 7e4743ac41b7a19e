import { authenticateTokenClient } from "./client-auth";
import { authorizationCodeGrant } from "./grants/authorization-code";
import { refreshTokenGrant } from "./grants/refresh-token";
import type { Reply } from "@/lib/http/core/reply";
import type { TokenResponse } from "./grants/issue-tokens";
import { json, readParams, type OidcRequest } from "./http";
import { grantTypeRefused, paramsObject, TokenRequest, tokenRequestError } from "./schemas";

/**
 * POST /api/auth/oidc/token: `application/json` (spec 4.5) or
 * `application/x-www-form-urlencoded` (RFC 6749), validated by TokenRequest
 * (./schemas.ts). A missing or unsupported grant_type is answered first,
 * then the client authenticates, then the grant's own parameters are
 * refused or one grant, one file (lib/oidc/grants/), runs. Success is
 * top-level token JSON (spec 2.9); errors are the spec envelope.
 */
export async function handleTokenRequest(req: OidcRequest): Promise<Reply<TokenResponse>> {
  const input = paramsObject(await readParams(req, "body"));
  const parsed = TokenRequest.safeParse(input);
  if (!parsed.success && grantTypeRefused(parsed.error)) throw tokenRequestError(parsed.error, input);
  const app = await authenticateTokenClient(req, input);
  if (!parsed.success) throw tokenRequestError(parsed.error, input);
  const request = parsed.data;
  return json(request.grant_type === "authorization_code" ? await authorizationCodeGrant(app, request) : await refreshTokenGrant(app, request));
}
