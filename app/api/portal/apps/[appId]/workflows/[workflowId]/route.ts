import { apiRoute, routeMethods } from "@/lib/http/api-route";
import { findAppOfDeveloper } from "@/lib/portal/access";
import { UpdateWorkflowBody } from "@/lib/workflows/schemas";
import { deleteWorkflow, findWorkflow, presentWorkflow, updateWorkflow } from "@/lib/workflows/workflows";

/** One workflow of one of the developer's apps (else 404): read, update (as PATCH /api/v2/workflows/{id}), delete. */
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  GET: apiRoute({ auth: "developer" }, async ({ developer, params }) => {
    const app = await findAppOfDeveloper(developer.developerId, params.appId!);
    return { workflow: presentWorkflow(await findWorkflow(app, params.workflowId!)) };
  }),
  PATCH: apiRoute({ auth: "developer", body: UpdateWorkflowBody }, async ({ developer, params, body }) => {
    const app = await findAppOfDeveloper(developer.developerId, params.appId!);
    return { workflow: await updateWorkflow(app, params.workflowId!, body) };
  }),
  DELETE: apiRoute({ auth: "developer" }, async ({ developer, params }) => {
    const app = await findAppOfDeveloper(developer.developerId, params.appId!);
    return deleteWorkflow(app, params.workflowId!);
  }),
});
