import { forgetFace } from "@/lib/faces/unlink-face";
import { apiRoute, routeMethods } from "@/lib/http/api-route";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  DELETE: apiRoute({ auth: "apiKey" }, async ({ app, params }) => forgetFace(app, params.svc_uuid!)),
});
