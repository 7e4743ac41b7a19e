import type { App } from "@/generated/prisma/client";

/**
 * Who acts on a roster: an app calling the organization API with its client
 * credentials, or the developer portal for the signed-in developer's
 * organization (`id` then names the portal caller, e.g. for rate limits).
 */
export type RosterCaller = Pick<App, "id" | "organizationId">;
