import { ApiError } from "@/lib/http/api-error";
import { successBody } from "@/lib/http/envelope";
import { readLicences, readUserinfo, readVerifications } from "./account-reads";
import { startAuthorization } from "./authorize";
import { endpoints } from "./config";
import { discoveryDocument } from "./discovery";
import { html, json, oidcJsonRoute, readParams, redirect, type OidcHandler } from "./http";
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
export const discoveryHandler: OidcHandler = async () => json(discoveryDocument(), 200, { "Cache-Control": "public, max-age=300" });

export const jwksHandler: OidcHandler = async () => json(await publishedJwks(), 200, { "Cache-Control": "public, max-age=60" });

export const authorizeHandler: OidcHandler = async (req) => {
  const outcome = await startAuthorization(await readParams(req, req.method === "POST" ? "body" : "query"), req.headers.get("cookie"));
  return outcome.kind === "interaction"
    ? redirect(outcome.location, outcome.cookies)
    : redirect(outcome.location);
};

export const tokenHandler: OidcHandler = async (req) => handleTokenRequest(req);

export const userinfoHandler: OidcHandler = async (req) => json(await readUserinfo(req));
export const licencesHandler: OidcHandler = async (req) => json(successBody(await readLicences(req)));
export const verificationsHandler: OidcHandler = async (req) => json(successBody(await readVerifications(req)));
export const credentialHandler: OidcHandler = async (req) =>
  json(successBody(await issuePredicateCredential(req)), 200, { "Cache-Control": "no-store" });

export const logoutHandler: OidcHandler = async (req) => {
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
