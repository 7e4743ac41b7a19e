"use client";

/**
 * Signs in through next-auth's Credentials callback without leaving the page
 * (`json=true`: next-auth answers `{ url }` instead of redirecting), so an
 * error is shown next to the form with what was typed kept. Returns the
 * next-auth error code, or null once signed in.
 */
export async function signInWithPassword(input: { csrfToken: string; email: string; password: string; callbackUrl: string }): Promise<string | null> {
  const res = await fetch("/api/portal/auth/callback/credentials", {
    method: "POST",
    credentials: "same-origin",
    headers: { "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ ...input, json: "true" }),
  });
  const body = (await res.json().catch(() => ({}))) as { url?: string };
  const error = body.url ? new URL(body.url, window.location.origin).searchParams.get("error") : "unknown";
  if (error || !res.ok) return error ?? "unknown";
  return null;
}

/** Only a path of this site after sign-in (never another origin). */
export function safeCallbackPath(value: string | null | undefined): string {
  return value && value.startsWith("/") && !value.startsWith("//") && !value.startsWith("/\\") ? value : "/dashboard";
}
