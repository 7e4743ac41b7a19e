import { now } from "@/lib/clock";
import { db } from "@/lib/db/client";
import { splitScope, SUPPORTED_SCOPES } from "../config";
import { SYSTEM_ORGANIZATION_ID } from "../first-party";
import { revokeAccountGrants } from "./revoke";

/**
 * The apps a person is signed in to through this provider, for their
 * account page: every app with a live grant (not revoked, not past the end
 * of its login, the app active), except the service's own clients.
 */
export type SignedInApp = {
  app_id: string;
  name: string;
  logo: string | null;
  /** What the app may read: the union of its live grants' scopes, in the provider's order. */
  scopes: string[];
  /** The earliest live grant: when the person allowed it. */
  granted_at: string;
  /** The last token the app got for this person (sign-in or refresh), or null. */
  last_used_at: string | null;
};

type Row = { app_id: string; name: string; logo: string | null; scope: string; created_at: Date; last_token_at: Date | null };

/** The person's live grants (not revoked, not past the end of their login) to active apps other than the service's own, newest first. */
async function liveGrants(accountId: string): Promise<Row[]> {
  const prisma = await db();
  const grants = await prisma.oidcGrant.findMany({
    where: { accountId, revokedAt: null, expiresAt: { gt: now() }, app: { isActive: true, organizationId: { not: SYSTEM_ORGANIZATION_ID } } },
    select: {
      appId: true,
      scope: true,
      createdAt: true,
      app: { select: { name: true, logo: true } },
      accessTokens: { select: { createdAt: true }, orderBy: { createdAt: "desc" }, take: 1 },
    },
    orderBy: { createdAt: "desc" },
  });
  return grants.map((g) => ({
    app_id: g.appId,
    name: g.app.name,
    logo: g.app.logo,
    scope: g.scope,
    created_at: g.createdAt,
    last_token_at: g.accessTokens[0]?.createdAt ?? null,
  }));
}

export async function listSignedInApps(accountId: string): Promise<SignedInApp[]> {
  const rows = await liveGrants(accountId);
  const apps = new Map<string, { app: Row; scopes: Set<string>; grantedAt: Date; lastUsedAt: Date | null }>();
  for (const row of rows) {
    const seen = apps.get(row.app_id) ?? { app: row, scopes: new Set<string>(), grantedAt: row.created_at, lastUsedAt: null };
    splitScope(row.scope).forEach((s) => seen.scopes.add(s));
    if (row.created_at < seen.grantedAt) seen.grantedAt = row.created_at;
    if (row.last_token_at && (!seen.lastUsedAt || row.last_token_at > seen.lastUsedAt)) seen.lastUsedAt = row.last_token_at;
    apps.set(row.app_id, seen);
  }
  return [...apps.values()].map(({ app, scopes, grantedAt, lastUsedAt }) => ({
    app_id: app.app_id,
    name: app.name,
    logo: app.logo,
    scopes: SUPPORTED_SCOPES.filter((s) => scopes.has(s)),
    granted_at: new Date(grantedAt).toISOString(),
    last_used_at: lastUsedAt ? new Date(lastUsedAt).toISOString() : null,
  }));
}

/**
 * The person ends an app's sign-in from their account page: every grant of
 * theirs for it is revoked, so each of its access and refresh tokens stops
 * working at once. False when the app had no live grant of theirs.
 */
export async function endAppSignIn(accountId: string, appId: string): Promise<boolean> {
  const live = (await listSignedInApps(accountId)).some((app) => app.app_id === appId);
  if (!live) return false;
  await revokeAccountGrants(accountId, appId);
  return true;
}
