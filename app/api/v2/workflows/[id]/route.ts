import { apiRoute, routeMethods } from "@/lib/http/api-route";
import { UpdateWorkflowBody } from "@/lib/workflows/schemas";
import { deleteWorkflow, findWorkflow, presentWorkflow, updateWorkflow } from "@/lib/workflows/workflows";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  GET: apiRoute({ auth: "apiKey" }, async ({ app, params }) => ({
    workflow: presentWorkflow(await findWorkflow(app, params.id!)),
  })),
  PATCH: apiRoute({ auth: "apiKey", body: UpdateWorkflowBody }, async ({ app, params, body }) => ({
    workflow: await updateWorkflow(app, params.id!, body),
  })),
  DELETE: apiRoute({ auth: "apiKey" }, async ({ app, params }) => deleteWorkflow(app, params.id!)),
});
