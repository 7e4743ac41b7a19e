import { apiRoute, routeMethods } from "@/lib/http/api-route";
import { credentialStates } from "@/lib/licence-registries/catalogue";
import { sessionLicenceTypes } from "@/lib/credentials/session-licence-types";
import * as hostedFlowApi from "@/lib/openapi/operations/hosted-flow";

/** The hosted page's discovery: as GET /api/v2/credential/states, narrowed to the licence types the session's workflow accepts. */
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  GET: apiRoute(hostedFlowApi.listFlowCredentialStates, async ({ session }) => credentialStates(sessionLicenceTypes(session))),
});
