import { parseCookie } from "cookie";

/**
 * A request's cookies by name, from its Cookie header (the `cookie` library:
 * the first of duplicates wins, as browsers send the most specific first;
 * a value that is not valid percent-encoding is kept as sent). Shared by
 * the portal's sign-in, the OIDC provider's interaction and session
 * cookies, and the person's account page.
 */
export function parseCookieHeader(header: string | null | undefined): Record<string, string | undefined> {
  return header ? parseCookie(header) : {};
}
