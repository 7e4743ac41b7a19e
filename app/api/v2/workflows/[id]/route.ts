import { apiRoute, routeMethods } from "@/lib/http/api-route";
import { UpdateWorkflowBody } from "@/lib/workflows/schemas";
import { deleteWorkflow, findWorkflow, presentWorkflow, updateWorkflow } from "@/lib/workflows/workflows";
import * as verificationApi from "@/lib/openapi/operations/verification";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  GET: apiRoute(verificationApi.getWorkflow, async ({ app, params }) => ({
    workflow: presentWorkflow(await findWorkflow(app, params.id!)),
  })),
  PATCH: apiRoute(verificationApi.updateWorkflow, async ({ app, params, body }) => ({
    workflow: await updateWorkflow(app, params.id!, body),
  })),
  DELETE: apiRoute(verificationApi.deleteWorkflow, async ({ app, params }) => deleteWorkflow(app, params.id!)),
});
