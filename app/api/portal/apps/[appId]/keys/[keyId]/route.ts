import { apiRoute, routeMethods } from "@/lib/http/api-route";
import { findAppOfDeveloper } from "@/lib/portal/access";
import { revokeApiKeyOfApp } from "@/lib/tenancy/create-app";

/** Revokes one of the app's keys (effective within CREDENTIAL_CACHE_MS on other processes). */
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  DELETE: apiRoute({ auth: "developer" }, async ({ developer, params }) => {
    const app = await findAppOfDeveloper(developer.developerId, params.appId!);
    const revoked = await revokeApiKeyOfApp(app.id, params.keyId!);
    return { id: revoked.id, prefix: revoked.prefix, revoked: true };
  }),
});
