import { ApiError } from "@/lib/http/api-error";
import { apiRoute, routeMethods } from "@/lib/http/api-route";
import { findAppOfDeveloper } from "@/lib/portal/access";
import { setAppLogo } from "@/lib/tenancy/app-branding";

/** The app's logo on the hosted page: one image file in `logo` (the checks of lib/tenancy/app-branding.ts), or DELETE to remove it. */
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  PUT: apiRoute({ auth: "developer", upload: { maxFiles: 1 } }, async ({ developer, params, upload }) => {
    const app = await findAppOfDeveloper(developer.developerId, params.appId!);
    const file = upload?.files.find((f) => f.field === "logo");
    if (!file) throw new ApiError("invalid_request", { message: "Send the image as the `logo` field", data: { errors: { logo: ["Logo file is required"] } } });
    return setAppLogo(app.id, file.bytes);
  }),
  DELETE: apiRoute({ auth: "developer" }, async ({ developer, params }) => {
    const app = await findAppOfDeveloper(developer.developerId, params.appId!);
    return setAppLogo(app.id, null);
  }),
});
