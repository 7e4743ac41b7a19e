import { env } from "@/lib/config/env";
import { ApiError } from "@/lib/http/api-error";
import type { HeaderReader } from "@/lib/http/core/request";
import { findDeveloperOrganization, type PortalDeveloper } from "./access";
import { parseCookieHeader } from "@/lib/http/cookies";
import { portalSessionFromCookies } from "./session-cookie";

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * Cross-site request forgery, THE portal rule: a state-changing request
 * (anything but GET/HEAD/OPTIONS) must come from the portal's own pages: its
 * `Origin` is PUBLIC_BASE_URL's origin, or the browser marks it
 * `Sec-Fetch-Site: same-origin` (neither can be set by another site's page).
 * Otherwise 403 `cross_site_request`. On top of it the session cookie is
 * SameSite=Lax. Signed-in routes and the forms posted before sign-in
 * (lib/portal/public-form.ts) both ask it.
 */
export function assertPortalOrigin(req: { method: string; headers: HeaderReader }): void {
  if (SAFE_METHODS.has(req.method)) return;
  const origin = req.headers.get("origin");
  const sameOrigin = req.headers.get("sec-fetch-site") === "same-origin";
  if (!sameOrigin && origin !== new URL(env().PUBLIC_BASE_URL).origin) throw new ApiError("cross_site_request");
}

/**
 * A portal JSON route's caller: the developer of the next-auth session
 * cookie, with their organization, or 401 `sign_in_required`; a
 * state-changing request from another site is 403 `cross_site_request`
 * (assertPortalOrigin).
 */
export async function authenticatePortalRequest(req: { method: string; headers: HeaderReader }): Promise<PortalDeveloper> {
  assertPortalOrigin(req);
  const session = await portalSessionFromCookies(parseCookieHeader(req.headers.get("cookie")));
  if (!session) throw new ApiError("sign_in_required");
  const developer = await findDeveloperOrganization(session);
  if (!developer) throw new ApiError("sign_in_required");
  return developer;
}
