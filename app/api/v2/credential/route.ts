import { apiRoute, routeMethods } from "@/lib/http/api-route";
import { CredentialBody, submitCredential } from "@/lib/credentials/run-credential-check";
import * as hostedFlowApi from "@/lib/openapi/operations/hosted-flow";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  POST: apiRoute(hostedFlowApi.submitCredential, async ({ session, body }) => submitCredential(session, body)),
});
