import { apiRoute, routeMethods } from "@/lib/http/api-route";
import { credentialStates } from "@/lib/licence-registries/catalogue";
import * as verificationApi from "@/lib/openapi/operations/verification";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  GET: apiRoute(verificationApi.listCredentialStates, async () => credentialStates()),
});
