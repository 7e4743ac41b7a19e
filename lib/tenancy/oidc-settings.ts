import { previousWhileLive } from "@/lib/crypto/rolled-secret";
import { now } from "@/lib/clock";
import { db } from "@/lib/db/client";
import { ApiError } from "@/lib/http/api-error";
import { parseOrThrow } from "@/lib/http/validation";
import { RedirectUriSchema, ScopesSchema } from "./schemas";

type OidcApp = {
  id: string;
  clientId: string;
  redirectUris: string[];
  scopes: string[];
  isActive: boolean;
  previousClientSecretHash: string | null;
  previousClientSecretExpiresAt: Date | null;
};

/** While a rotated-away client secret still works (its overlap window), when it stops; else null. */
function previousSecretExpiry(app: OidcApp): string | null {
  return previousWhileLive(app.previousClientSecretHash, app.previousClientSecretExpiresAt, now()) ? app.previousClientSecretExpiresAt!.toISOString() : null;
}

function present(app: OidcApp) {
  return {
    app_id: app.id,
    client_id: app.clientId,
    redirect_uris: app.redirectUris,
    scopes: app.scopes,
    active: app.isActive,
    previous_secret_expires_at: previousSecretExpiry(app),
  };
}

async function findApp(appId: string) {
  const prisma = await db();
  const app = await prisma.app.findUnique({ where: { id: appId } });
  if (!app) throw new ApiError("not_found", { message: "App not found" });
  return { prisma, app };
}

/** Registers one exact redirect URI (adding an existing one changes nothing). */
export async function addRedirectUri(appId: string, uri: string) {
  const value = parseOrThrow(RedirectUriSchema, uri, "uri");
  const { prisma, app } = await findApp(appId);
  if (app.redirectUris.includes(value)) return present(app);
  return present(await prisma.app.update({ where: { id: appId }, data: { redirectUris: { push: value } } }));
}

/** Removes one registered redirect URI (removing one that is not there changes nothing). */
export async function removeRedirectUri(appId: string, uri: string) {
  const { prisma, app } = await findApp(appId);
  if (!app.redirectUris.includes(uri)) return present(app);
  const redirectUris = app.redirectUris.filter((u) => u !== uri);
  return present(await prisma.app.update({ where: { id: appId }, data: { redirectUris } }));
}

/** The app's OIDC client settings (no secret: it is shown once, when made or rotated; while a rotated-away secret still works, when it stops). */
export async function readOidcSettings(appId: string) {
  const { app } = await findApp(appId);
  return present(app);
}

/** Sets the scopes the app may request (spec 5 rule 3); must include openid. */
export async function setScopes(appId: string, scopes: string[]) {
  const value = parseOrThrow(ScopesSchema, scopes, "scopes");
  const { prisma } = await findApp(appId);
  return present(await prisma.app.update({ where: { id: appId }, data: { scopes: value } }));
}
