import { ApiError } from "@/lib/http/api-error";
import type { RequestView } from "@/lib/http/core/request";
import { authenticatePortalRequest } from "./authenticate";

/**
 * The guard of a portal form posted before anyone is signed in (sign-up, the
 * email verification link's page), run before the body is read:
 * - the portal's cross-site rule, the one every signed-in portal form obeys
 *   (lib/portal/authenticate.ts: `Origin` is PUBLIC_BASE_URL's, or
 *   `Sec-Fetch-Site: same-origin`; else 403 `cross_site_request`). It is that
 *   function's own check, asked without a session cookie: its "no session"
 *   answer means the origin passed.
 * - a JSON body only (415 `unsupported_media_type`): another site's page can
 *   post `text/plain` without a CORS preflight, never `application/json`.
 */
export async function assertPortalFormPost(req: Pick<RequestView, "method" | "headers">): Promise<void> {
  try {
    await authenticatePortalRequest({ method: req.method, headers: { get: (name) => (name.toLowerCase() === "cookie" ? null : req.headers.get(name)) } });
  } catch (err) {
    if (!(err instanceof ApiError && err.code === "sign_in_required")) throw err;
  }
  assertJsonContentType(req.headers.get("content-type"));
}

/** `application/json`, with or without parameters (`; charset=utf-8`). */
function assertJsonContentType(contentType: string | null): void {
  const mediaType = (contentType ?? "").split(";")[0]!.trim().toLowerCase();
  if (mediaType !== "application/json") throw new ApiError("unsupported_media_type");
}
