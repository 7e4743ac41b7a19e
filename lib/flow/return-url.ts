/**
 * Where the person goes back to once the session is over: the session's
 * `redirect_url` with `?status=<hint>&session_id=` (a hint only: the
 * decision endpoint or the webhook is authoritative). Null without one.
 */
export function returnUrlWithHint(session: { id: string; status: string; redirectUrl: string | null }): string | null {
  if (!session.redirectUrl) return null;
  const url = new URL(session.redirectUrl);
  url.searchParams.set("status", session.status.toLowerCase());
  url.searchParams.set("session_id", session.id);
  return url.toString();
}
