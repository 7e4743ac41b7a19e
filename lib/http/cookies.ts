import { parseCookie } from "cookie";

/**
 * A request's cookies by name, from its Cookie header (the `cookie` library:
 * the first of duplicates wins, as browsers send the most specific first;
 * a quoted value loses its quotes; a value that is not valid
 * percent-encoding is kept as sent). Shared by
 * the portal's sign-in, the OIDC provider's interaction and session
 * cookies, and the person's account page.
 */
export function parseCookieHeader(header: string | null | undefined): Record<string, string | undefined> {
  return header ? parseCookie(header, { decode: decodeCookieValue }) : {};
}

/** A quoted value (RFC 6265 allows DQUOTE around a cookie-value) without its quotes, then percent-decoded when it can be. */
function decodeCookieValue(value: string): string {
  const unquoted = value.length >= 2 && value.startsWith('"') && value.endsWith('"') ? value.slice(1, -1) : value;
  if (!unquoted.includes("%")) return unquoted;
  try {
    return decodeURIComponent(unquoted);
  } catch {
    return unquoted;
  }
}
