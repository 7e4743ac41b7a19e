import { apiRoute, routeMethods } from "@/lib/http/api-route";
import { credentialProviders } from "@/lib/licence-registries/catalogue";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  GET: apiRoute({ auth: "apiKey" }, async ({ params }) => credentialProviders(params.state!)),
});
