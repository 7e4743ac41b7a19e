import { oidcJsonRoute, oidcPageRoute, oidcTokenRoute } from "@/lib/oidc/http";
import {
  authorizeHandler,
  credentialHandler,
  discoveryHandler,
  jwksHandler,
  licencesHandler,
  logoutHandler,
  tokenHandler,
  userinfoHandler,
  verificationsHandler,
} from "@/lib/oidc/routes";
import * as oidcApi from "@/lib/openapi/operations/oidc";

/**
 * The provider's routes, each built from its documented operation
 * (lib/openapi/operations/oidc.ts) and its handler (lib/oidc/routes.ts):
 * the app/ route files serve them, and in production the node:http edge
 * serves the hottest two as the very same routes (./lean-routes.ts).
 */
export const discoveryRoute = oidcJsonRoute(discoveryHandler, oidcApi.oidcDiscovery);
export const discoveryAliasRoute = oidcJsonRoute(discoveryHandler, oidcApi.oidcDiscoveryAlias);
export const jwksRoute = oidcJsonRoute(jwksHandler, oidcApi.oidcJwks);
export const authorizeRoute = oidcPageRoute(authorizeHandler, oidcApi.oidcAuthorize);
export const authorizePostRoute = oidcPageRoute(authorizeHandler, oidcApi.oidcAuthorizePost);
export const tokenRoute = oidcTokenRoute(tokenHandler, oidcApi.oidcToken);
export const userinfoRoute = oidcJsonRoute(userinfoHandler, oidcApi.oidcUserinfo);
export const userinfoPostRoute = oidcJsonRoute(userinfoHandler, oidcApi.oidcUserinfoPost);
export const licencesRoute = oidcJsonRoute(licencesHandler, oidcApi.oidcLicences);
export const verificationsRoute = oidcJsonRoute(verificationsHandler, oidcApi.oidcVerifications);
export const credentialRoute = oidcJsonRoute(credentialHandler, oidcApi.oidcPredicateCredential);
export const logoutRoute = oidcPageRoute(logoutHandler, oidcApi.oidcLogout);
export const logoutPostRoute = oidcPageRoute(logoutHandler, oidcApi.oidcLogoutPost);
