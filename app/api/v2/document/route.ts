import { submitDocument } from "@/lib/checks/run-document-check";
import { apiRoute, routeMethods } from "@/lib/http/api-route";
import * as hostedFlowApi from "@/lib/openapi/operations/hosted-flow";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  POST: apiRoute(hostedFlowApi.submitDocument, async ({ session, upload }) => submitDocument(session, upload!), { upload: { maxFiles: 2 } }),
});
