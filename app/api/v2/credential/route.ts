import { apiRoute, routeMethods } from "@/lib/http/api-route";
import { CredentialBody, submitCredential } from "@/lib/credentials/run-credential-check";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  POST: apiRoute({ auth: "sessionToken", body: CredentialBody }, async ({ session, body }) => submitCredential(session, body)),
});
