import { apiRoute, routeMethods } from "@/lib/http/api-route";
import { findAppOfDeveloper } from "@/lib/portal/access";
import { rotateClientSecret } from "@/lib/tenancy/create-app";
import { RollBody } from "@/lib/tenancy/roll-window";

/** Rotates the OIDC client secret: the new one is in this answer only; the old one works `expire_previous_in` seconds more (default 24 hours). */
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  POST: apiRoute({ auth: "developer", body: RollBody }, async ({ developer, params, body }) => {
    const app = await findAppOfDeveloper(developer.developerId, params.appId!);
    const rotated = await rotateClientSecret(app.id, body.expire_previous_in);
    return {
      client_id: rotated.clientId,
      client_secret: rotated.clientSecret,
      previous_secret_expires_at: rotated.previousSecretExpiresAt?.toISOString() ?? null,
    };
  }),
});
