import { db } from "@/lib/db/client";
import { ApiError } from "@/lib/http/api-error";
import { revokeAccountGrants } from "./grants/revoke";
import { withQuery } from "./http";
import { verifyIdTokenHint } from "./id-token";
import { endProviderSession } from "./provider-session";
import { LogoutQuery, parseParams } from "./schemas";

/** Where the browser goes, and the Set-Cookie that ends its sign-in session. */
export type LogoutOutcome = ({ kind: "redirect"; location: string } | { kind: "page"; revoked: number }) & { cookies: string[] };

/**
 * GET (or POST) /api/auth/oidc/logout (spec 4.5, OIDC RP-Initiated Logout
 * 1.0). `id_token_hint` names the person and the client: its signature must
 * be ours, an expired one is accepted. Every grant of that person for that
 * client is revoked (refresh and access tokens stop at once). The browser
 * then goes to `post_logout_redirect_uri` (which must exactly match a
 * redirect URI registered for the client) with `state`, or sees a page.
 * The browser's sign-in session at the provider ends too (./provider-
 * session.ts), so the next authorization asks the person to sign in.
 * Without a hint no grant is revoked; a `post_logout_redirect_uri` then
 * needs `client_id`. The parameters are LogoutQuery's (./schemas.ts).
 */
export async function logout(params: Map<string, string>, cookieHeader: string | null = null): Promise<LogoutOutcome> {
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
  const cookies = [await endProviderSession(cookieHeader)];
  if (postLogout) return { kind: "redirect", location: withQuery(postLogout, { state }), cookies };
  return { kind: "page", revoked, cookies };
}
