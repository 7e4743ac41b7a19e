import { apiRoute, reply, routeMethods } from "@/lib/http/api-route";
import { CreateAppBody, EnvironmentQuery } from "@/lib/portal/schemas";
import { listOrganizationApps } from "@/lib/tenancy/app-settings";
import { createApp } from "@/lib/tenancy/create-app";

/** The signed-in developer's organization's apps of one environment; create one (its first key and client secret shown once). */
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  GET: apiRoute({ auth: "developer", query: EnvironmentQuery }, async ({ developer, query }) => ({
    apps: await listOrganizationApps(developer.organizationId, query.environment),
  })),
  POST: apiRoute({ auth: "developer", body: CreateAppBody }, async ({ developer, body }) => {
    const created = await createApp({ organizationId: developer.organizationId, name: body.name, environment: body.environment });
    return reply(
      {
        app_id: created.appId,
        environment: created.environment,
        api_key: created.apiKey,
        client_id: created.clientId,
        client_secret: created.clientSecret,
      },
      201,
    );
  }),
});
