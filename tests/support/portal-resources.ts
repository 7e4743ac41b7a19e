import sharp from "sharp";
import { api, type Tenant } from "./api";
import type { PortalDeveloper } from "./portal";
import { keptImages } from "./review-sessions";
import { clientHeaders, identifyingTexts, seedTenantResources, type TenantResources } from "./tenant-resources";

/**
 * A portal developer's app as a tenant, with one resource of every kind a
 * portal route names (for tests/integration/tenant-isolation-portal.test.ts):
 * the API sweep's resources (tests/support/tenant-resources.ts: sessions,
 * workflows, webhooks, a delivery, members, a face) plus what only the
 * portal shows or changes: a second API key, a webhook still waiting for
 * approval, the IN_REVIEW session's kept images, a logo, a registered
 * redirect URI and an account recovery session in the organization's log.
 * The test file must call useServerDatabase() (tests/support/domain.ts).
 */
export type PortalResources = TenantResources & {
  developerEmail: string;
  /** A key made in the portal besides the app's first one (the one DELETE .../keys/{keyId} revokes). */
  key: { id: string; prefix: string; name: string };
  /** Registered in the portal, not approved (POST .../approve would approve it). */
  pendingWebhook: { id: string; url: string };
  redirectUri: string;
  recoverySessionId: string;
};

/** A small PNG (a logo; `size` pixels square). */
export async function pngImage(size = 32): Promise<Buffer> {
  return sharp({ create: { width: size, height: size, channels: 3, background: { r: 20, g: 90, b: 160 } } }).png().toBuffer();
}

/** A multipart body with the file in `logo`, as the portal's logo form sends it. */
export function logoForm(bytes: Buffer, type = "image/png"): FormData {
  const form = new FormData();
  form.append("logo", new Blob([new Uint8Array(bytes)], { type }), "logo.png");
  return form;
}

function expectStatus(res: { status: number; text: string }, status: number, what: string) {
  if (res.status !== status) throw new Error(`${what}: ${res.status} ${res.text.slice(0, 300)}`);
}

/** An app made in the portal (POST /api/portal/apps) as a Tenant: its first API key and client credentials, and its developer. */
export async function portalApp(dev: PortalDeveloper, environment: "test" | "production", name = "Portal app"): Promise<Tenant> {
  const created = await dev.call("POST", "/api/portal/apps", { json: { name, environment } });
  expectStatus(created, 201, "creating an app in the portal");
  const { db } = await import("@/lib/db/client");
  const developer = await (await db()).developer.findUniqueOrThrow({ where: { email: dev.email } });
  const app = created.body.data;
  return { developerId: developer.id, organizationId: dev.organizationId, appId: app.app_id, apiKey: app.api_key, clientId: app.client_id, clientSecret: app.client_secret };
}

export async function seedPortalResources(dev: PortalDeveloper, t: Tenant): Promise<PortalResources> {
  const r = await seedTenantResources(t);
  const base = `/api/portal/apps/${t.appId}`;
  const { saveArtifact } = await import("@/lib/artifacts/artifacts");
  const images = await keptImages();
  await saveArtifact(r.reviewSession.id, "document_front", images.document_front, "image/jpeg");
  await saveArtifact(r.reviewSession.id, "selfie", images.selfie, "image/jpeg");

  const keyName = `iso-${r.tag}-key`;
  const key = await dev.call("POST", `${base}/keys`, { json: { name: keyName } });
  expectStatus(key, 201, "making a key");
  const pendingUrl = `https://hooks.example/pending-${r.tag}`;
  const pending = await dev.call("POST", `${base}/webhooks`, { json: { url: pendingUrl } });
  expectStatus(pending, 201, "registering a webhook");
  const redirectUri = `https://rp-${r.tag}.example/callback`;
  expectStatus(await dev.call("POST", `${base}/oidc/redirect-uris`, { json: { uri: redirectUri } }), 200, "registering a redirect URI");
  expectStatus(await dev.call("PUT", `${base}/logo`, { form: logoForm(await pngImage()) }), 200, "setting the logo");
  // The bound member's account recovery (organization API), so the organization's recovery log has an entry.
  const recovery = await api("POST", "/api/sdk/recovery/session", { headers: clientHeaders(t), json: { svcId: r.account.id, variant: "without_id" } });
  if (recovery.status !== 200 || !recovery.body.data.sessionId) throw new Error(`starting a recovery failed: ${recovery.status} ${recovery.text}`);

  return {
    ...r,
    developerEmail: dev.email,
    key: { id: key.body.data.id, prefix: key.body.data.prefix, name: keyName },
    pendingWebhook: { id: pending.body.data.webhook_id, url: pendingUrl },
    redirectUri,
    recoverySessionId: recovery.body.data.sessionId,
  };
}

/** What identifies the tenant or its resources (identifyingTexts) plus the portal-only ones. */
export function portalIdentifyingTexts(t: Tenant, r: PortalResources): string[] {
  return [...identifyingTexts(t, r), r.developerEmail, r.key.id, r.key.prefix, r.key.name, r.pendingWebhook.id, r.pendingWebhook.url, r.redirectUri, r.recoverySessionId];
}
