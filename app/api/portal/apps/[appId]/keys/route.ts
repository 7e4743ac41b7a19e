import { env } from "@/lib/config/env";
import { apiRoute, reply, routeMethods } from "@/lib/http/api-route";
import { findAppOfDeveloper } from "@/lib/portal/access";
import { CreateApiKeyBody } from "@/lib/portal/schemas";
import { listApiKeys } from "@/lib/tenancy/api-keys";
import { issueApiKey } from "@/lib/tenancy/create-app";

/** An app's API keys (prefixes only); create one (the key shown once). */
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  GET: apiRoute({ auth: "developer" }, async ({ developer, params }) => {
    const app = await findAppOfDeveloper(developer.developerId, params.appId!);
    return { keys: await listApiKeys(app.id), credential_cache_ms: env().CREDENTIAL_CACHE_MS };
  }),
  POST: apiRoute({ auth: "developer", body: CreateApiKeyBody }, async ({ developer, params, body }) => {
    const app = await findAppOfDeveloper(developer.developerId, params.appId!);
    const key = await issueApiKey(app.id, body.name);
    return reply({ id: key.id, name: body.name, prefix: key.prefix, api_key: key.apiKey }, 201);
  }),
});
