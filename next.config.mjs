import createNextIntlPlugin from "next-intl/plugin";

// next-intl: the person-facing pages' language and messages per request (lib/i18n/request.ts).
const withNextIntl = createNextIntlPlugin("./lib/i18n/request.ts");

/** @type {import('next').NextConfig} */
const nextConfig = {
  reactStrictMode: true,
  // The tests run their own `next dev` in a separate folder, so they never
  // collide with a developer's running `npm run dev`.
  distDir: process.env.SVC_NEXT_DIST_DIR || ".next",
  poweredByHeader: false,
  // Loaded by Node at run time, never bundled: PGlite ships WASM and data
  // files, pg/ioredis have optional native paths.
  serverExternalPackages: ["@electric-sql/pglite", "pg", "ioredis", "rate-limiter-flexible", "piscina", "sharp", "pg-boss"],
  // No page or route of this app is ever shown inside another page
  // (clickjacking), also in browsers that send no Sec-Fetch-Dest: catch-alls,
  // so a new page is covered without being listed. The one exception is the
  // hosted verification page `/verify/<session_id>`, which the app that owns
  // the session may let its own origins frame: proxy.ts sends its headers
  // (README "Embedding the hosted page").
  // A header set here replaces the one a route handler sets (Next keeps the
  // first), so the Content-Security-Policy rule leaves out the routes of the
  // HTTP core that send a stricter policy of their own: /api/* (the OIDC
  // provider's HTML pages, with frame-ancestors 'none'; review images) and
  // /docs (frame-ancestors 'none'). X-Frame-Options covers them all.
  async headers() {
    return [
      { source: "/:path((?!verify/[^/]+$).*)", headers: [{ key: "X-Frame-Options", value: "DENY" }] },
      {
        source: "/:path((?!verify/[^/]+$|api(?:/|$)|docs(?:/|$)).*)",
        headers: [{ key: "Content-Security-Policy", value: "frame-ancestors 'none'" }],
      },
    ];
  },
};

export default withNextIntl(nextConfig);
