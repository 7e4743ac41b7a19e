import { ApiError } from "@/lib/http/api-error";
import { successBody } from "@/lib/http/envelope";
import { readLicences, readUserinfo, readVerifications } from "./account-reads";
import { startAuthorization } from "./authorize";
import { endpoints } from "./config";
import { discoveryDocument } from "./discovery";
import { html, json, oidcJsonRoute, oidcPageRoute, oidcTokenRoute, readParams, redirect } from "./http";
import { publishedJwks } from "./keys";
import { issuePredicateCredential } from "./predicate-credential";
import { logout } from "./logout";
import { renderMessagePage } from "./message-page";
import { STRINGS } from "@/lib/accounts/sign-in-strings";
import { handleTokenRequest } from "./token-endpoint";

/**
 * The route handlers of the provider, so each app/ route file is one line.
 */
export const discoveryRoute = oidcJsonRoute(async () =>
  json(discoveryDocument(), 200, { "Cache-Control": "public, max-age=300" }),
);

export const jwksRoute = oidcJsonRoute(async () =>
  json(await publishedJwks(), 200, { "Cache-Control": "public, max-age=60" }),
);

export const authorizeRoute = oidcPageRoute(async (req) => {
  const outcome = await startAuthorization(await readParams(req, req.method === "POST" ? "body" : "query"), req.headers.get("cookie"));
  return outcome.kind === "interaction"
    ? redirect(outcome.location, outcome.cookies)
    : redirect(outcome.location);
});

export const tokenRoute = oidcTokenRoute(async (req) => handleTokenRequest(req));

export const userinfoRoute = oidcJsonRoute(async (req) => json(await readUserinfo(req)));
export const licencesRoute = oidcJsonRoute(async (req) => json(successBody(await readLicences(req))));
export const verificationsRoute = oidcJsonRoute(async (req) => json(successBody(await readVerifications(req))));
export const credentialRoute = oidcJsonRoute(async (req) => json(successBody(await issuePredicateCredential(req)), 200, { "Cache-Control": "no-store" }));

export const logoutRoute = oidcPageRoute(async (req) => {
  const outcome = await logout(await readParams(req, req.method === "POST" ? "both" : "query"), req.headers.get("cookie"));
  if (outcome.kind === "redirect") return redirect(outcome.location, outcome.cookies);
  const page = STRINGS.logoutPage;
  return html(renderMessagePage({ title: page.title, heading: page.heading, message: page.message }), 200, { "Set-Cookie": outcome.cookies });
});

/** The removed legacy single-sign-on endpoints (/api/auth/sso/...): 410 `endpoint_removed`. */
export const legacySsoRoute = oidcJsonRoute(async (req) => {
  throw new ApiError("endpoint_removed", {
    message: `${new URL(req.url).pathname} was removed: use OpenID Connect (discovery: ${endpoints().discovery})`,
    data: { discovery: endpoints().discovery },
  });
});
