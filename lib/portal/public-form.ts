import { ApiError } from "@/lib/http/api-error";
import type { RequestView } from "@/lib/http/core/request";
import { assertPortalOrigin } from "./authenticate";

/**
 * The guard of a portal form posted before anyone is signed in (sign-up, the
 * email verification link's page), run before the body is read:
 * - the portal's cross-site rule, the one every signed-in portal form obeys
 *   (lib/portal/authenticate.ts `assertPortalOrigin`: `Origin` is
 *   PUBLIC_BASE_URL's, or `Sec-Fetch-Site: same-origin`; else 403
 *   `cross_site_request`).
 * - a JSON body only (415 `unsupported_media_type`): another site's page can
 *   post `text/plain` without a CORS preflight, never `application/json`.
 */
export async function assertPortalFormPost(req: Pick<RequestView, "method" | "headers">): Promise<void> {
  assertPortalOrigin(req);
  assertJsonContentType(req.headers.get("content-type"));
}

/** `application/json`, with or without parameters (`; charset=utf-8`). */
function assertJsonContentType(contentType: string | null): void {
  const mediaType = (contentType ?? "").split(";")[0]!.trim().toLowerCase();
  if (mediaType !== "application/json") throw new ApiError("unsupported_media_type");
}
