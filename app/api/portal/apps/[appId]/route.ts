import { apiRoute, routeMethods } from "@/lib/http/api-route";
import { findAppOfDeveloper } from "@/lib/portal/access";
import { UpdateAppBody } from "@/lib/portal/schemas";
import { presentApp, updateAppSettings } from "@/lib/tenancy/app-settings";

/** One app of the developer's organization (else 404): read, rename, (de)activate, set the origins that may frame its hosted page. */
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  GET: apiRoute({ auth: "developer" }, async ({ developer, params }) => ({
    app: presentApp(await findAppOfDeveloper(developer.developerId, params.appId!)),
  })),
  PATCH: apiRoute({ auth: "developer", body: UpdateAppBody }, async ({ developer, params, body }) => {
    const app = await findAppOfDeveloper(developer.developerId, params.appId!);
    return { app: await updateAppSettings(app, body) };
  }),
});
