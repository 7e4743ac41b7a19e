import { apiRoute, Reply, routeMethods } from "@/lib/http/api-route";
import { referenceScript } from "@/lib/docs/reference-page";

/** GET /docs/scalar.js: the reference page's script, served locally. */
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  GET: apiRoute({ auth: "none" }, async () =>
    Reply.bytes(new Uint8Array(await referenceScript()), "text/javascript; charset=utf-8", { "Cache-Control": "public, max-age=86400" }),
  ),
});
