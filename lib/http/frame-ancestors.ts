/**
 * Response headers that say which pages may show this one in a frame
 * (clickjacking). `Content-Security-Policy: frame-ancestors` lists them;
 * `X-Frame-Options` cannot name a list, so it is sent (DENY) only when none
 * may, for browsers without frame-ancestors. The app's every other page is
 * never framed (next.config.mjs).
 */
export function frameAncestorsHeaders(origins: readonly string[]): Record<string, string> {
  if (origins.length === 0) return { "Content-Security-Policy": "frame-ancestors 'none'", "X-Frame-Options": "DENY" };
  return { "Content-Security-Policy": `frame-ancestors ${origins.join(" ")}` };
}
