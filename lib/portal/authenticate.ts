import { env } from "@/lib/config/env";
import { ApiError } from "@/lib/http/api-error";
import type { HeaderReader } from "@/lib/http/core/request";
import { findDeveloperOrganization, type PortalDeveloper } from "./access";
import { parseCookieHeader, portalSessionFromCookies } from "./session-cookie";

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * A portal JSON route's caller: the developer of the next-auth session
 * cookie, with their organization, or 401 `sign_in_required`.
 *
 * Cross-site request forgery: the cookie is SameSite=Lax, and on top of it a
 * state-changing request (anything but GET/HEAD/OPTIONS) must come from the
 * portal's own pages: its `Origin` is PUBLIC_BASE_URL's origin, or the
 * browser marks it `Sec-Fetch-Site: same-origin` (neither can be set by
 * another site's page). Otherwise 403 `cross_site_request`.
 */
export async function authenticatePortalRequest(req: { method: string; headers: HeaderReader }): Promise<PortalDeveloper> {
  if (!SAFE_METHODS.has(req.method)) {
    const origin = req.headers.get("origin");
    const sameOrigin = req.headers.get("sec-fetch-site") === "same-origin";
    if (!sameOrigin && origin !== new URL(env().PUBLIC_BASE_URL).origin) throw new ApiError("cross_site_request");
  }
  const session = await portalSessionFromCookies(parseCookieHeader(req.headers.get("cookie")));
  if (!session) throw new ApiError("sign_in_required");
  const developer = await findDeveloperOrganization(session);
  if (!developer) throw new ApiError("sign_in_required");
  return developer;
}
