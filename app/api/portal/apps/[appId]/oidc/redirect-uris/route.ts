import { apiRoute, routeMethods } from "@/lib/http/api-route";
import { endpoints } from "@/lib/oidc/config";
import { findAppOfDeveloper } from "@/lib/portal/access";
import { RedirectUriBody } from "@/lib/portal/schemas";
import { addRedirectUri, removeRedirectUri } from "@/lib/tenancy/oidc-settings";

/** Adds (the CLI's validation: lib/tenancy/schemas.ts RedirectUriSchema) or removes one exact redirect URI. */
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  POST: apiRoute({ auth: "developer", body: RedirectUriBody }, async ({ developer, params, body }) => {
    const app = await findAppOfDeveloper(developer.developerId, params.appId!);
    return { ...(await addRedirectUri(app.id, body.uri)), discovery_url: endpoints().discovery };
  }),
  DELETE: apiRoute({ auth: "developer", body: RedirectUriBody }, async ({ developer, params, body }) => {
    const app = await findAppOfDeveloper(developer.developerId, params.appId!);
    return { ...(await removeRedirectUri(app.id, body.uri)), discovery_url: endpoints().discovery };
  }),
});
