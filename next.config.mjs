/** @type {import('next').NextConfig} */
const nextConfig = {
  reactStrictMode: true,
  // The tests run their own `next dev` in a separate folder, so they never
  // collide with a developer's running `npm run dev`.
  distDir: process.env.SVC_NEXT_DIST_DIR || ".next",
  poweredByHeader: false,
  // Loaded by Node at run time, never bundled: PGlite ships WASM and data
  // files, pg/ioredis have optional native paths.
  serverExternalPackages: ["@electric-sql/pglite", "wabt", "pg", "ioredis", "rate-limiter-flexible", "piscina", "sharp", "pg-boss"],
  // No page or route of this app is ever shown inside another page
  // (clickjacking), also in browsers that send no Sec-Fetch-Dest: one
  // catch-all, so a new page is covered without being listed. The one
  // exception is the hosted verification page `/verify/<session_id>`, which
  // the app that owns the session may let its own origins frame: proxy.ts
  // sends its headers (README "The hosted verification page").
  async headers() {
    const noFrames = [
      { key: "X-Frame-Options", value: "DENY" },
      { key: "Content-Security-Policy", value: "frame-ancestors 'none'" },
    ];
    return [{ source: "/:path((?!verify/[^/]+$).*)", headers: noFrames }];
  },
};

export default nextConfig;
