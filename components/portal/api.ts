"use client";

import { messagesFor, DEFAULT_LOCALE } from "@/lib/i18n";

/**
 * The portal's client side talks to its own JSON routes (app/api/portal/*),
 * which are routes of the one HTTP core with the `developer` auth kind (the
 * next-auth session cookie). Chosen over server actions because:
 * - every mutation then gets what every API call gets (request id, rate
 *   limit, zod validation with the per-field error map the forms show,
 *   errors from the one catalogue in the spec envelope) instead of a second
 *   path with its own error handling;
 * - the routes are plain HTTP, so integration tests (and curl) exercise the
 *   authorization guard and the cross-organization 404s directly;
 * - react-query's queries and mutations are plain fetches to stable URLs
 *   (server action ids change with every build).
 * Cross-site requests are refused by the route's auth (Origin /
 * Sec-Fetch-Site, lib/portal/authenticate.ts).
 */
export const text = messagesFor(DEFAULT_LOCALE).portal;

export class PortalApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly fields: Record<string, string[]> = {},
    readonly requestId?: string,
  ) {
    super(message);
    this.name = "PortalApiError";
  }
}

export async function portalFetch<T>(method: string, path: string, body?: unknown): Promise<T> {
  let res: Response;
  try {
    res = await fetch(path, {
      method,
      credentials: "same-origin",
      headers: body instanceof FormData || body === undefined ? {} : { "Content-Type": "application/json" },
      body: body instanceof FormData ? body : body === undefined ? undefined : JSON.stringify(body),
    });
  } catch {
    throw new PortalApiError(0, "network_error", text.common.networkError);
  }
  const requestId = res.headers.get("x-request-id") ?? undefined;
  let payload: { success?: boolean; data?: unknown; error?: { code: string; message: string } } | undefined;
  try {
    payload = (await res.json()) as typeof payload;
  } catch {
    payload = undefined;
  }
  if (res.ok && payload?.success) return payload.data as T;
  const data = (payload?.data ?? {}) as { errors?: Record<string, string[]> };
  throw new PortalApiError(res.status, payload?.error?.code ?? "server_error", payload?.error?.message ?? text.common.unexpectedError(requestId), data.errors ?? {}, requestId);
}

/** What to tell the developer about a failed call (field errors are shown next to their fields). */
export function errorMessage(error: unknown): string {
  if (!(error instanceof PortalApiError)) return text.common.unexpectedError();
  if (error.code === "network_error") return text.common.networkError;
  if (error.code === "sign_in_required") return text.common.signedOut;
  if (error.code === "rate_limited") return text.common.rateLimited;
  if (error.status >= 500) return text.common.unexpectedError(error.requestId);
  return error.message;
}

export function fieldErrors(error: unknown, field: string): string[] | undefined {
  return error instanceof PortalApiError ? error.fields[field] : undefined;
}

/** react-query keys: one per resource, invalidated after each change to it. */
export const queryKeys = {
  apps: (environment: string) => ["portal", "apps", environment] as const,
  allApps: ["portal", "apps"] as const,
  app: (appId: string) => ["portal", "app", appId] as const,
  keys: (appId: string) => ["portal", "keys", appId] as const,
  oidc: (appId: string) => ["portal", "oidc", appId] as const,
  wallet: ["portal", "wallet"] as const,
  csrf: ["portal", "csrf"] as const,
  // workflows: the list's key prefixes each workflow's, so invalidating the list refreshes both.
  workflows: (appId: string) => ["portal", "workflows", appId] as const,
  workflowList: (appId: string, status: string) => ["portal", "workflows", appId, "list", status] as const,
  workflow: (appId: string, workflowId: string) => ["portal", "workflows", appId, "one", workflowId] as const,
  /** The name of the workflow just deleted, for the list's notice (client-side only). */
  workflowDeleted: (appId: string) => ["portal", "workflow-deleted", appId] as const,
  // Sessions and the review queue: everything of one app's sessions under one prefix, invalidated after a decision.
  sessions: (appId: string) => ["portal", "sessions", appId] as const,
  sessionList: (appId: string, filter: { status?: string; vendor_data?: string }) => ["portal", "sessions", appId, "list", filter] as const,
  session: (appId: string, sessionId: string) => ["portal", "sessions", appId, "one", sessionId] as const,
  reviewQueue: (appId: string) => ["portal", "sessions", appId, "review-queue"] as const,
  // Webhooks (endpoints; the delivery log, one entry per filter, all invalidated by `allDeliveries`).
  webhooks: (appId: string) => ["portal", "webhooks", appId] as const,
  allDeliveries: (appId: string) => ["portal", "deliveries", appId] as const,
  deliveries: (appId: string, filters: { webhookId: string; state: string }) => ["portal", "deliveries", appId, filters] as const,
  // The organization's pages: the roster (one entry per status filter, all under `roster`), billing, the recovery log.
  roster: ["portal", "organization", "roster"] as const,
  rosterList: (status: string) => ["portal", "organization", "roster", status] as const,
  billing: ["portal", "organization", "billing"] as const,
  recoveryLog: ["portal", "organization", "recovery"] as const,
};

/** Dates in one fixed form, the same on the server's first paint and in the browser. */
export function formatDate(iso: string | null): string {
  if (!iso) return text.common.never;
  return `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;
}

export function formatMoney(amount: number, currency = "USD"): string {
  const sign = amount < 0 ? "−" : "";
  return `${sign}${Math.abs(amount).toFixed(2)} ${currency}`;
}
