import { submitDocument } from "@/lib/checks/run-document-check";
import { apiRoute, routeMethods } from "@/lib/http/api-route";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  POST: apiRoute({ auth: "sessionToken", upload: { maxFiles: 2 } }, async ({ session, upload }) => submitDocument(session, upload!)),
});
