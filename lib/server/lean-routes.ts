import type { EdgeRoutes } from "@/lib/http/edge";
import { tokenRoute, userinfoPostRoute, userinfoRoute } from "./oidc-routes";

/**
 * The provider's hot paths, the token endpoint and userinfo, served by the
 * node:http edge (lib/http/edge.ts) instead of through Next's request
 * pipeline, whose fixed cost per request (about half a millisecond of CPU)
 * was most of theirs. The very route of the core behind
 * app/api/auth/oidc/{token,userinfo}/route.ts runs there unchanged (same
 * request ids, errors, limits); only the I/O adapter differs. Production
 * only: in development Next reloads edited code, which a route registered
 * once would not see.
 */
export const LEAN_ROUTES: EdgeRoutes = {
  "/api/auth/oidc/token": { POST: tokenRoute.route },
  "/api/auth/oidc/userinfo": { GET: userinfoRoute.route, POST: userinfoPostRoute.route },
};
