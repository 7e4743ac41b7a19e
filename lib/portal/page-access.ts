import { cookies } from "next/headers";
import { notFound, redirect } from "next/navigation";
import { cache } from "react";
import type { App } from "@/generated/prisma/client";
import { ApiError } from "@/lib/http/api-error";
import { findAppOfDeveloper, findDeveloperOrganization, type PortalDeveloper } from "./access";
import { portalSessionFromCookies } from "./session-cookie";

/**
 * The portal pages' side of authentication and authorization (server
 * components may read cookies; API routes use lib/portal/authenticate.ts):
 * the same session cookie and the same guard (lib/portal/access.ts).
 */
export const signedInDeveloper = cache(async (): Promise<PortalDeveloper | null> => {
  const store = await cookies();
  const session = await portalSessionFromCookies(Object.fromEntries(store.getAll().map((c) => [c.name, c.value])));
  return session ? findDeveloperOrganization(session) : null;
});

/** The developer, or a redirect to the sign-in page (coming back to `returnTo`). */
export async function requireDeveloper(returnTo: string): Promise<PortalDeveloper> {
  const developer = await signedInDeveloper();
  if (!developer) redirect(`/sign-in?callbackUrl=${encodeURIComponent(returnTo)}`);
  return developer;
}

/** What a domain lookup found, or the 404 page where it answered 404 (another app's or an unknown id). */
export async function foundOrNotFound<T>(lookup: Promise<T>): Promise<T> {
  try {
    return await lookup;
  } catch (err) {
    if (err instanceof ApiError && err.status === 404) notFound();
    throw err;
  }
}

/** The app if it belongs to the developer's organization (findAppOfDeveloper); otherwise the 404 page. */
export function requireAppOfDeveloper(developer: PortalDeveloper, appId: string): Promise<App> {
  return foundOrNotFound(findAppOfDeveloper(developer.developerId, appId));
}
