import { apiRoute, routeMethods } from "@/lib/http/api-route";
import { credentialProviders } from "@/lib/licence-registries/catalogue";
import { sessionLicenceTypes } from "@/lib/credentials/session-licence-types";
import * as hostedFlowApi from "@/lib/openapi/operations/hosted-flow";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  GET: apiRoute(hostedFlowApi.listFlowCredentialProviders, async ({ session, params }) => credentialProviders(params.state!, sessionLicenceTypes(session))),
});
