import { expect } from "vitest";
import type { PortalDeveloper } from "./portal";

/** A test app of `dev`'s organization, made through the portal. */
export async function portalTestApp(dev: PortalDeveloper, name = "Hooks") {
  const res = await dev.call("POST", "/api/portal/apps", { json: { name, environment: "test" } });
  expect(res.status).toBe(201);
  return res.body.data.app_id as string;
}

/** Registers `url` as an approved webhook of `appId` through the portal; returns its id and signing secret. */
export async function registerApprovedWebhook(dev: PortalDeveloper, appId: string, url: string) {
  const created = await dev.call("POST", `/api/portal/apps/${appId}/webhooks`, { json: { url } });
  expect(created.status, url).toBe(201);
  const webhookId = created.body.data.webhook_id as string;
  expect((await dev.call("POST", `/api/portal/apps/${appId}/webhooks/${webhookId}/approve`)).status).toBe(200);
  return { webhookId, secret: created.body.data.secret as string };
}
