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
  // The sign-in pages and the account page are never shown inside another
  // page (clickjacking), also in browsers that send no Sec-Fetch-Dest.
  async headers() {
    const noFrames = [
      { key: "X-Frame-Options", value: "DENY" },
      { key: "Content-Security-Policy", value: "frame-ancestors 'none'" },
    ];
    return ["/account", "/account/:path*", "/oidc/interaction/:path*", "/activate/:path*"].map((source) => ({ source, headers: noFrames }));
  },
};

export default nextConfig;
