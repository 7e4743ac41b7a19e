import "server-only";
/**
 * A rolled credential's previous secret (an API key's, the OIDC client
 * secret's, a webhook signing secret's) keeps working through its overlap
 * window. The one rule for "still works": it is stored and its window has
 * not ended at `at`. Returns the previous secret while it works, else null.
 */
export function previousWhileLive<S>(previous: S | null, expiresAt: Date | string | null, at: Date): S | null {
  if (previous === null || expiresAt === null) return null;
  return new Date(expiresAt).getTime() > at.getTime() ? previous : null;
}
