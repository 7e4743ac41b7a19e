import { apiRoute, reply, routeMethods } from "@/lib/http/api-route";
import { CreateWorkflowBody } from "@/lib/workflows/schemas";
import { createWorkflow, listWorkflows } from "@/lib/workflows/workflows";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  GET: apiRoute({ auth: "apiKey" }, async ({ app }) => ({ workflows: await listWorkflows(app) })),
  POST: apiRoute({ auth: "apiKey", body: CreateWorkflowBody }, async ({ app, body, commitAnswer }) =>
    reply({ workflow: await createWorkflow(app, body, commitAnswer ? (tx, workflow) => commitAnswer(tx, reply({ workflow }, 201)) : undefined) }, 201),
  ),
});
