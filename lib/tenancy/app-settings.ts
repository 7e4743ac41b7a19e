import type { App } from "@/generated/prisma/client";
import { db } from "@/lib/db/client";
import { ApiError } from "@/lib/http/api-error";
import { forgetCredentials } from "@/lib/http/auth";
import { parseFrameOrigins, setFrameOrigins } from "./frame-origins";
import { AppNameSchema } from "./schemas";

/** An app as the portal lists it (no secrets: those are shown once, when made). */
export function presentApp(app: App) {
  return {
    id: app.id,
    name: app.name,
    environment: app.environment,
    is_active: app.isActive,
    client_id: app.clientId,
    logo: app.logo,
    frame_origins: app.frameOrigins,
    created_at: app.createdAt.toISOString(),
  };
}
export type PresentedApp = ReturnType<typeof presentApp>;

/** An organization's apps of one environment (spec 5 rule 9), oldest first. */
export async function listOrganizationApps(organizationId: string, environment: "test" | "production") {
  const prisma = await db();
  const apps = await prisma.app.findMany({ where: { organizationId, environment }, orderBy: [{ createdAt: "asc" }, { id: "asc" }] });
  return apps.map(presentApp);
}

/**
 * Renames an app. The name is the OIDC client's `client_name` (shown on the
 * consent screen and the hosted page): 1 to 120 characters, else 400
 * `invalid_client_metadata` with the field's message.
 */
export async function renameApp(appId: string, name: unknown) {
  const parsed = AppNameSchema.safeParse(name);
  if (!parsed.success) {
    const message = parsed.error.issues[0]?.message ?? "Name must be 1 to 120 characters";
    throw new ApiError("invalid_client_metadata", { message, data: { errors: { name: [message] } } });
  }
  const prisma = await db();
  return presentApp(await prisma.app.update({ where: { id: appId }, data: { name: parsed.data } }));
}

/**
 * Activates or deactivates an app: an inactive app's API keys and OIDC
 * client are refused (401), at once in this process and within
 * CREDENTIAL_CACHE_MS in others.
 */
export async function setAppActive(appId: string, active: boolean) {
  const prisma = await db();
  const app = await prisma.app.update({ where: { id: appId }, data: { isActive: active } });
  forgetCredentials();
  return presentApp(app);
}

/**
 * The portal's app settings change (PATCH /api/portal/apps/{id}): any of
 * name, frame origins, active. Every value is checked before anything is
 * written, so a refused one leaves the app as it was.
 */
export async function updateAppSettings(app: App, changes: { name?: unknown; frame_origins?: unknown; is_active?: boolean }) {
  const frameOrigins = changes.frame_origins === undefined ? undefined : parseFrameOrigins(app.environment, changes.frame_origins);
  let presented = presentApp(app);
  if (changes.name !== undefined) presented = await renameApp(app.id, changes.name);
  if (frameOrigins !== undefined) presented = presentApp(await setFrameOrigins(app.id, frameOrigins));
  if (changes.is_active !== undefined) presented = await setAppActive(app.id, changes.is_active);
  return presented;
}
