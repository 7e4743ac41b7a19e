import { apiRoute, Reply, routeMethods } from "@/lib/http/api-route";
import { findAppOfDeveloper } from "@/lib/portal/access";
import { loadReviewImage } from "@/lib/sessions/review-images";

/**
 * A kept review image (`document_front`, `document_back`, `selfie`: the best
 * liveness frame), decrypted for a developer of the owning organization
 * only, while the session is IN_REVIEW; never stored by the browser
 * (Cache-Control: no-store), never rendered as anything but an image.
 */
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  GET: apiRoute({ auth: "developer" }, async ({ developer, params }) => {
    const app = await findAppOfDeveloper(developer.developerId, params.appId!);
    const image = await loadReviewImage(app, params.sessionId!, params.kind!);
    return Reply.bytes(image.bytes, image.contentType, {
      "Content-Disposition": "inline",
      "Content-Security-Policy": "default-src 'none'; sandbox",
      "Cross-Origin-Resource-Policy": "same-origin",
      "Referrer-Policy": "no-referrer",
    });
  }),
});
