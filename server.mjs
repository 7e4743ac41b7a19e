// The HTTP entry point: Next.js behind a plain node:http server, so every
// request carries the TCP peer address (x-svc-peer-ip, overwriting anything a
// client sent) for the per-IP rate limit. Next's own x-forwarded-for keeps a
// client-supplied value and cannot be trusted without a proxy.
//   node server.mjs         production (after `next build`)
//   node server.mjs --dev   development with hot reload
import http from "node:http";
import next from "next";

const dev = process.argv.includes("--dev");
if (!process.env.NODE_ENV) process.env.NODE_ENV = dev ? "development" : "production";
process.env.NEXT_TELEMETRY_DISABLED ??= "1";
const port = Number(process.env.PORT ?? 3000);
const hostname = process.env.HOST ?? "0.0.0.0";

const app = next({ dev, hostname, port });
const handle = app.getRequestHandler();
await app.prepare();

const server = http.createServer((req, res) => {
  req.headers["x-svc-peer-ip"] = req.socket.remoteAddress ?? "unknown";
  // The OpenID Connect token and userinfo endpoints: their own Request ->
  // Response handlers, registered at start-up in production, without Next's
  // per-request cost (lib/oidc/lean-routes.ts). Everything else: Next.
  if (globalThis.__svcLeanRoutes?.(req, res)) return;
  handle(req, res);
});
server.keepAliveTimeout = 65_000;
server.listen(port, hostname, () => {
  const shown = hostname === "0.0.0.0" ? "localhost" : hostname;
  console.log(`> Ready on http://${shown}:${port} (${dev ? "development" : "production"})`);
  // Next runs instrumentation (configuration check, database, migrations,
  // background jobs) on the first request: make that happen now, not on a
  // user's request. A bad configuration exits the process from there.
  const local = hostname === "0.0.0.0" || hostname === "::" ? "127.0.0.1" : hostname;
  fetch(`http://${local.includes(":") ? `[${local}]` : local}:${port}/api/health`).catch(() => {});
});

let stopping = false;
for (const signal of ["SIGINT", "SIGTERM"]) {
  process.on(signal, () => {
    if (stopping) process.exit(1);
    stopping = true;
    server.close(() => process.exit(0));
    server.closeAllConnections();
    setTimeout(() => process.exit(0), 5000).unref();
  });
}
