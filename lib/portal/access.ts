import type { App } from "@/generated/prisma/client";
import { db } from "@/lib/db/client";
import { ApiError } from "@/lib/http/api-error";
import { liveSessionWhere } from "./developer-sessions";
import type { PortalSession } from "./session-cookie";
import type { RouteDeveloper } from "@/lib/http/core/callers";

/** The signed-in developer as the portal sees them: who, and the organization they act for. */
/** The signed-in developer and their organization: the HTTP core's own type, since its auth "developer" hands it to handlers. */
export type PortalDeveloper = RouteDeveloper;

/**
 * The developer of a portal session and their organization (the first they
 * joined: sign-up creates exactly one; choosing among several comes with the
 * organization API), or null when the session is no longer live (signed out,
 * ended by a password change, expired: lib/portal/developer-sessions.ts),
 * the developer no longer exists or belongs to no organization. Every path
 * that trusts the session cookie (API routes, pages) comes through here.
 */
export async function findDeveloperOrganization(session: PortalSession): Promise<PortalDeveloper | null> {
  const prisma = await db();
  const developer = await prisma.developer.findFirst({
    where: { id: session.developerId, sessions: { some: liveSessionWhere(session) } },
    include: { memberships: { include: { organization: true }, orderBy: { createdAt: "asc" }, take: 1 } },
  });
  const membership = developer?.memberships[0];
  if (!developer || !membership) return null;
  return {
    developerId: developer.id,
    email: developer.email,
    name: developer.name,
    organizationId: membership.organizationId,
    organizationName: membership.organization.name,
    emailVerified: developer.emailVerifiedAt !== null,
  };
}

/**
 * THE portal's authorization rule, in one place: is this developer a member
 * of the organization that owns this app? Every portal page and JSON route
 * about an app goes through it. A miss (another organization's app, an
 * unknown id) is 404 `not_found`, as the API answers: it never says the app
 * exists elsewhere.
 */
export async function findAppOfDeveloper(developerId: string, appId: string): Promise<App> {
  const prisma = await db();
  const app = await prisma.app.findFirst({
    where: { id: appId, organization: { developers: { some: { developerId } } } },
  });
  if (!app) throw new ApiError("not_found", { message: "App not found" });
  return app;
}
