import { db } from "@/lib/db/client";
import { ApiError } from "@/lib/http/api-error";
import { revokeAccountGrants } from "./grants/revoke";
import { withQuery } from "./http";
import { verifyIdTokenHint } from "./id-token";
import { LogoutQuery, parseParams } from "./schemas";

export type LogoutOutcome = { kind: "redirect"; location: string } | { kind: "page"; revoked: number };

/**
 * GET (or POST) /api/auth/oidc/logout (spec 4.5, OIDC RP-Initiated Logout
 * 1.0). `id_token_hint` names the person and the client: its signature must
 * be ours, an expired one is accepted. Every grant of that person for that
 * client is revoked (refresh and access tokens stop at once). The browser
 * then goes to `post_logout_redirect_uri` (which must exactly match a
 * redirect URI registered for the client) with `state`, or sees a page.
 * Without a hint nothing can be revoked (the provider keeps no browser
 * session); a `post_logout_redirect_uri` then needs `client_id`. The
 * parameters are LogoutQuery's (./schemas.ts).
 */
export async function logout(params: Map<string, string>): Promise<LogoutOutcome> {
  const {
    id_token_hint: hintValue,
    client_id: clientIdParam,
    post_logout_redirect_uri: postLogout,
    state,
  } = parseParams(LogoutQuery, params);
  const hint = hintValue ? await verifyIdTokenHint(hintValue) : null;
  if (hintValue && !hint) throw new ApiError("invalid_request", { message: "id_token_hint is not an ID token of this provider" });
  if (hint && clientIdParam && !hint.aud.includes(clientIdParam)) {
    throw new ApiError("invalid_request", { message: "client_id does not match the id_token_hint" });
  }
  const clientId = clientIdParam ?? hint?.aud[0];
  const prisma = await db();
  const app = clientId ? await prisma.app.findUnique({ where: { clientId } }) : null;
  if (clientId && !app) throw new ApiError("invalid_client", { message: "Unknown client" });

  if (postLogout) {
    if (!app) {
      throw new ApiError("invalid_request", { message: "post_logout_redirect_uri needs id_token_hint or client_id" });
    }
    if (!app.redirectUris.includes(postLogout)) {
      throw new ApiError("invalid_redirect_uri", {
        message: "post_logout_redirect_uri does not exactly match a redirect URI registered for this app",
      });
    }
  }
  const revoked = hint && app ? await revokeAccountGrants(hint.sub, app.id) : 0;
  if (postLogout) return { kind: "redirect", location: withQuery(postLogout, { state }) };
  return { kind: "page", revoked };
}
