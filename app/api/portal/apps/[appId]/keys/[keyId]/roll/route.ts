import { apiRoute, reply, routeMethods } from "@/lib/http/api-route";
import { findAppOfDeveloper } from "@/lib/portal/access";
import { rollApiKeyOfApp } from "@/lib/tenancy/create-app";
import { RollBody } from "@/lib/tenancy/roll-window";

/** Rolls one of the app's keys: a new key (shown once) at once; the old one works until `expire_previous_in` seconds from now. */
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  POST: apiRoute({ auth: "developer", body: RollBody }, async ({ developer, params, body }) => {
    const app = await findAppOfDeveloper(developer.developerId, params.appId!);
    const rolled = await rollApiKeyOfApp(app.id, params.keyId!, body.expire_previous_in);
    return reply(
      {
        id: rolled.key.id,
        name: rolled.key.name,
        prefix: rolled.key.prefix,
        api_key: rolled.key.apiKey,
        previous: { id: rolled.previous.id, prefix: rolled.previous.prefix, expires_at: rolled.previous.expiresAt.toISOString() },
      },
      201,
    );
  }),
});
