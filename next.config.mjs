/** @type {import('next').NextConfig} */
const nextConfig = {
  reactStrictMode: true,
  poweredByHeader: false,
  // Loaded by Node at run time, never bundled: PGlite ships WASM and data
  // files, pg/ioredis have optional native paths.
  serverExternalPackages: ["@electric-sql/pglite", "@electric-sql/pglite-socket", "pg", "ioredis", "rate-limiter-flexible"],
};

export default nextConfig;
