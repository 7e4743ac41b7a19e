import { forgetFace } from "@/lib/faces/unlink-face";
import { apiRoute, routeMethods } from "@/lib/http/api-route";
import * as verificationApi from "@/lib/openapi/operations/verification";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  DELETE: apiRoute(verificationApi.unlinkFace, async ({ app, params }) => forgetFace(app, params.svc_uuid!)),
});
