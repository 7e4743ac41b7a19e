import type { App } from "@/generated/prisma/client";

/**
 * The service's own OIDC clients: the account page (/account, lib/identity/
 * account-page/account-page-app.ts) signs people in through this provider
 * as the system app "Your account" of the system organization. Nobody else
 * can own that organization or that client id, and what the person signs in
 * to is this service itself, so there is nothing to consent to: the sign-in
 * goes straight back (skipsConsent). Every other client asks for consent.
 */
export const ACCOUNT_PAGE_CLIENT_ID = "svc_account_page";
export const SYSTEM_ORGANIZATION_ID = "00000000-0000-4000-8000-00000000a11c";

/** The one rule for skipping the consent screen: only the service's own account page client. */
export function skipsConsent(app: Pick<App, "clientId" | "organizationId">): boolean {
  return app.clientId === ACCOUNT_PAGE_CLIENT_ID && app.organizationId === SYSTEM_ORGANIZATION_ID;
}
