import { apiRoute, reply, routeMethods } from "@/lib/http/api-route";
import { CreateWorkflowBody } from "@/lib/workflows/schemas";
import { createWorkflow, listWorkflows, type PresentedWorkflow } from "@/lib/workflows/workflows";
import * as verificationApi from "@/lib/openapi/operations/verification";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  GET: apiRoute(verificationApi.listWorkflows, async ({ app }) => ({ workflows: await listWorkflows(app) })),
  POST: apiRoute(verificationApi.createWorkflow, async ({ app, body, commitAnswer }) => {
    const answer = (workflow: PresentedWorkflow) => reply({ workflow }, 201);
    return answer(await createWorkflow(app, body, commitAnswer?.(answer)));
  }),
});
