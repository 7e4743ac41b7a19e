import { apiRoute, routeMethods } from "@/lib/http/api-route";
import { credentialProviders } from "@/lib/licence-registries/catalogue";
import { sessionLicenceTypes } from "@/lib/credentials/session-licence-types";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  GET: apiRoute({ auth: "sessionToken" }, async ({ session, params }) => credentialProviders(params.state!, sessionLicenceTypes(session))),
});
