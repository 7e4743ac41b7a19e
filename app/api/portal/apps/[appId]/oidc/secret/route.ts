import { apiRoute, routeMethods } from "@/lib/http/api-route";
import { findAppOfDeveloper } from "@/lib/portal/access";
import { rotateClientSecret } from "@/lib/tenancy/create-app";

/** Rotates the OIDC client secret: the new one is in this answer only; the old one stops at once. */
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  POST: apiRoute({ auth: "developer" }, async ({ developer, params }) => {
    const app = await findAppOfDeveloper(developer.developerId, params.appId!);
    const rotated = await rotateClientSecret(app.id);
    return { client_id: rotated.clientId, client_secret: rotated.clientSecret };
  }),
});
