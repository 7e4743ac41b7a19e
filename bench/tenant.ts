import { cli } from "../tests/support/cli";

export type BenchTenant = {
  organizationId: string;
  appId: string;
  apiKey: string;
  headers: Record<string, string>;
  workflowId: string;
  sessionId: string;
};

/**
 * A developer with a funded test app, a workflow (document, liveness, face
 * match) and one session of it, made as a customer would: the admin CLI,
 * then the API with the app's key.
 */
export async function createBenchTenant(baseUrl: string, env: Record<string, string>, developer: { email: string; password: string; label: string }): Promise<BenchTenant> {
  const dev = await cli(["developer:create", "--email", developer.email, "--password", developer.password], env);
  await cli(["wallet:credit", "--org", dev.organization_id, "--amount", "100000"], env);
  const app = await cli(["app:create", "--org", dev.organization_id, "--name", developer.label, "--env", "test"], env);
  const headers = { "X-API-Key": app.api_key as string, "Content-Type": "application/json" };
  const post = (path: string, body: unknown) => fetch(`${baseUrl}${path}`, { method: "POST", headers, body: JSON.stringify(body) }).then((r) => r.json());
  const wf = await post("/api/v2/workflows", { name: "bench", features: ["id_verification", "liveness", "face_match"] });
  const workflowId = wf.data.workflow.id as string;
  const session = await post("/api/v2/session", { workflow_id: workflowId, vendor_data: "user-4242" });
  return { organizationId: dev.organization_id, appId: app.app_id, apiKey: app.api_key, headers, workflowId, sessionId: session.data.session_id };
}
