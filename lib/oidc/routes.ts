import { ApiError } from "@/lib/http/api-error";
import { readLicences, readUserinfo, readVerifications } from "./account-reads";
import { startAuthorization } from "./authorize";
import { endpoints } from "./config";
import { discoveryDocument } from "./discovery";
import { enveloped, html, json, oidcJsonRoute, readParams, redirect, type OidcRequest } from "./http";
import { publishedJwks } from "./keys";
import { issuePredicateCredential } from "./predicate-credential";
import { logout } from "./logout";
import { renderMessagePage } from "./message-page";
import { STRINGS } from "@/lib/accounts/sign-in-strings";
import { handleTokenRequest } from "./token-endpoint";

/**
 * The provider's endpoint handlers; each is served as the route of its
 * documented operation (lib/server/oidc-routes.ts), so each app/ route file
 * is one line.
 */
export const discoveryHandler = async () => json(discoveryDocument(), 200, { "Cache-Control": "public, max-age=300" });

export const jwksHandler = async () => json(await publishedJwks(), 200, { "Cache-Control": "public, max-age=60" });

export const authorizeHandler = async (req: OidcRequest) => {
  const outcome = await startAuthorization(await readParams(req, req.method === "POST" ? "body" : "query"), req.headers.get("cookie"));
  return outcome.kind === "interaction"
    ? redirect(outcome.location, outcome.cookies)
    : redirect(outcome.location);
};

export const tokenHandler = async (req: OidcRequest) => handleTokenRequest(req);

export const userinfoHandler = async (req: OidcRequest) => json(await readUserinfo(req));
export const licencesHandler = async (req: OidcRequest) => enveloped(await readLicences(req));
export const verificationsHandler = async (req: OidcRequest) => enveloped(await readVerifications(req));
export const credentialHandler = async (req: OidcRequest) =>
  enveloped(await issuePredicateCredential(req));

export const logoutHandler = async (req: OidcRequest) => {
  const outcome = await logout(await readParams(req, req.method === "POST" ? "both" : "query"), req.headers.get("cookie"));
  if (outcome.kind === "redirect") return redirect(outcome.location, outcome.cookies);
  const page = STRINGS.logoutPage;
  return html(renderMessagePage({ title: page.title, heading: page.heading, message: page.message }), 200, { "Set-Cookie": outcome.cookies });
};

/** The removed legacy single-sign-on endpoints (/api/auth/sso/...): 410 `endpoint_removed`. */
export const legacySsoRoute = oidcJsonRoute(async (req) => {
  throw new ApiError("endpoint_removed", {
    message: `${new URL(req.url).pathname} was removed: use OpenID Connect (discovery: ${endpoints().discovery})`,
    data: { discovery: endpoints().discovery },
  });
});
