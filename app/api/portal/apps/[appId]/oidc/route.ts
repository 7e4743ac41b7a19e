import { apiRoute, routeMethods } from "@/lib/http/api-route";
import { endpoints } from "@/lib/oidc/config";
import { findAppOfDeveloper } from "@/lib/portal/access";
import { UpdateOidcBody } from "@/lib/portal/schemas";
import { setAppActive } from "@/lib/tenancy/app-settings";
import { readOidcSettings, setScopes } from "@/lib/tenancy/oidc-settings";

/** The app's OIDC client: client id, redirect URIs, scopes, active, the discovery URL; PATCH scopes and/or active. */
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  GET: apiRoute({ auth: "developer" }, async ({ developer, params }) => {
    const app = await findAppOfDeveloper(developer.developerId, params.appId!);
    return { ...(await readOidcSettings(app.id)), discovery_url: endpoints().discovery };
  }),
  PATCH: apiRoute({ auth: "developer", body: UpdateOidcBody }, async ({ developer, params, body }) => {
    const app = await findAppOfDeveloper(developer.developerId, params.appId!);
    if (body.scopes !== undefined) await setScopes(app.id, body.scopes);
    if (body.active !== undefined) await setAppActive(app.id, body.active);
    return { ...(await readOidcSettings(app.id)), discovery_url: endpoints().discovery };
  }),
});
