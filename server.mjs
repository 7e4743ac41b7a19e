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
// The .env files, read here as Next reads them (@next/env: .env, .env.local,
// .env.production or .env.development...; the environment wins), before
// PORT and HOST are read: the listener and env() (PUBLIC_BASE_URL's default
// port) see the same values.
nextEnv.loadEnvConfig(process.cwd(), dev, { info: () => {}, error: console.error });
// Development only: webhooks may reach this machine's own receivers (the
// address guard refuses loopback otherwise), unless the operator set
// WEBHOOK_ALLOWED_NETWORKS (in the environment or a .env file). Production
// never defaults it.
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
// The HTTP edge the app registers as it starts (lib/http/edge.ts), in the process slots of lib/process-slots.ts.
const edge = () => globalThis[Symbol.for("svc.process-slots")]?.get("httpEdge");

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
// A port already taken (or not allowed) ends the process with a clear line
// and exit code 1, so a supervisor sees the failure; without this listener
// the error would reach Next's uncaughtException handler, which logs it and
// leaves a process that serves nothing.
server.on("error", (err) => {
  if (server.listening) return console.error("> server error:", err);
  console.error(`> cannot listen on ${hostname}:${port}: ${err.code ?? err.message}`);
  process.exit(1);
});
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

// SIGTERM (a deployment replacing this instance) or SIGINT: drain. The
// listener closes at once (new connections are refused), idle keep-alive
// connections are closed, requests in flight finish (their connections close
// after the answer) for up to SHUTDOWN_GRACE_MS (default 25 s, under the
// 30 s Kubernetes waits before SIGKILL); once none is left, the remaining
// connections (idle, or upgraded such as development's hot-reload socket)
// are ended and the process exits 0. Whatever is still running at the
// deadline is cut. A second signal exits at once.
let stopping = false;
const inFlight = new Set();
const sockets = new Set();
server.on("connection", (socket) => {
  sockets.add(socket);
  socket.once("close", () => sockets.delete(socket));
});
server.on("request", (req, res) => {
  inFlight.add(res);
  if (stopping) res.shouldKeepAlive = false;
  res.once("close", () => {
    inFlight.delete(res);
    if (stopping) setImmediate(closeWhenDrained);
  });
});

/** While stopping: idle connections close; once no request is in flight, every connection left is ended. */
function closeWhenDrained() {
  server.closeIdleConnections();
  if (inFlight.size === 0) for (const socket of sockets) socket.end();
}

for (const signal of ["SIGINT", "SIGTERM"]) {
  process.on(signal, () => {
    if (stopping) process.exit(1);
    stopping = true;
    const graceMs = shutdownGraceMs();
    console.log(`> ${signal}: draining ${inFlight.size} request(s) in flight (up to ${graceMs} ms), refusing new connections`);
    for (const res of inFlight) if (!res.headersSent) res.shouldKeepAlive = false;
    server.close(() => process.exit(0));
    closeWhenDrained();
    setTimeout(() => {
      if (inFlight.size > 0) console.error(`> SHUTDOWN_GRACE_MS (${graceMs} ms) passed: cutting ${inFlight.size} request(s) still in flight`);
      process.exit(0);
    }, graceMs).unref();
  });
}

/** SHUTDOWN_GRACE_MS: how long requests in flight may finish after SIGTERM (lib/config/env.ts validates it at start-up). */
function shutdownGraceMs() {
  const ms = Number(process.env.SHUTDOWN_GRACE_MS || 25_000);
  return Number.isFinite(ms) && ms >= 0 ? ms : 25_000;
}
