import { apiRoute, reply, routeMethods } from "@/lib/http/api-route";
import { findAppOfDeveloper } from "@/lib/portal/access";
import { listWorkflowPage, WorkflowListQuery } from "@/lib/workflows/list-workflows-page";
import { CreateWorkflowBody } from "@/lib/workflows/schemas";
import { createWorkflow } from "@/lib/workflows/workflows";

/** An app's workflows, a page at a time (`cursor`, `status=active|inactive`); create one (the API's body and rules). */
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  GET: apiRoute({ auth: "developer", query: WorkflowListQuery }, async ({ developer, params, query }) =>
    listWorkflowPage(await findAppOfDeveloper(developer.developerId, params.appId!), query),
  ),
  POST: apiRoute({ auth: "developer", body: CreateWorkflowBody }, async ({ developer, params, body }) => {
    const app = await findAppOfDeveloper(developer.developerId, params.appId!);
    return reply({ workflow: await createWorkflow(app, body) }, 201);
  }),
});
