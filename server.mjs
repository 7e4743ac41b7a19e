// The HTTP entry point: Next.js behind a plain node:http server. Every
// request goes through the app's node:http edge (lib/http/edge.ts: request
// ids, the TCP peer address for the per-IP rate limit, refusals Next would
// answer with a 500, the lean OIDC routes) before Next. The edge is
// registered by the app's start-up (instrumentation), which Next runs on the
// first request it handles: that first request is our own warm-up, and
// every other request waits until the edge is there.
//   node server.mjs         production (after `next build`)
//   node server.mjs --dev   development with hot reload
import { randomBytes } from "node:crypto";
import http from "node:http";
import nextEnv from "@next/env";
import next from "next";

const dev = process.argv.includes("--dev");
if (!process.env.NODE_ENV) process.env.NODE_ENV = dev ? "development" : "production";
process.env.NEXT_TELEMETRY_DISABLED ??= "1";
// Development only: webhooks may reach this machine's own receivers (the
// address guard refuses loopback otherwise), unless the operator set
// WEBHOOK_ALLOWED_NETWORKS (in the environment or a .env file, read here as
// Next reads them). Production never defaults it.
if (dev) nextEnv.loadEnvConfig(process.cwd(), true, { info: () => {}, error: console.error });
if (dev && process.env.WEBHOOK_ALLOWED_NETWORKS === undefined) {
  process.env.WEBHOOK_ALLOWED_NETWORKS = "127.0.0.1/32,::1/128";
  console.log("> Development: WEBHOOK_ALLOWED_NETWORKS=127.0.0.1/32,::1/128 (webhooks may reach this machine; set it to change)");
}
const port = Number(process.env.PORT ?? 3000);
const hostname = process.env.HOST ?? "0.0.0.0";

const app = next({ dev, hostname, port });
const handle = app.getRequestHandler();
await app.prepare();

const warmupToken = randomBytes(16).toString("hex");
const waiting = [];
const edge = () => globalThis.__svcHttpEdge;

const server = http.createServer((req, res) => {
  if (edge()) return edge().serve(req, res, handle);
  if (req.headers["x-svc-warmup"] === warmupToken) return handle(req, res);
  waiting.push([req, res]);
});
server.on("clientError", (err, socket) => {
  if (edge()) edge().clientError(err, socket);
  else socket.destroy();
});
// CONNECT never reaches the request handler: Node emits `connect` (and
// without a listener drops the connection unanswered). The edge answers 405.
server.on("connect", (req, socket) => {
  if (edge()) edge().connect(req, socket);
  else socket.destroy();
});
server.keepAliveTimeout = 65_000;
server.listen(port, hostname, async () => {
  const shown = hostname === "0.0.0.0" ? "localhost" : hostname;
  console.log(`> Ready on http://${shown}:${port} (${dev ? "development" : "production"})`);
  // Start-up (configuration check, database, migrations, background jobs)
  // runs now, not on a user's request. A bad configuration exits from there.
  const local = hostname === "0.0.0.0" || hostname === "::" ? "127.0.0.1" : hostname;
  const origin = `http://${local.includes(":") ? `[${local}]` : local}:${port}`;
  while (!edge()) {
    await fetch(`${origin}/api/health/live`, { headers: { "x-svc-warmup": warmupToken } }).catch(() => {});
    if (!edge()) await new Promise((r) => setTimeout(r, 200));
  }
  for (const [req, res] of waiting.splice(0)) edge().serve(req, res, handle);
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
