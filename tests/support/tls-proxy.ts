import http from "node:http";
import https from "node:https";
import type { AddressInfo } from "node:net";

export type TlsProxy = { port: number; stop(): Promise<void> };

/**
 * A TLS-terminating reverse proxy, as an app's load balancer is: HTTPS on
 * `host` with `tls`, each request passed on unchanged (method, path,
 * headers, body) over HTTP to `target`, and its answer passed back.
 */
export async function startTlsProxy(host: string, tls: { key: Buffer; cert: Buffer }, target: { host: string; port: number }): Promise<TlsProxy> {
  const server = https.createServer(tls, (req, res) => {
    const upstream = http.request(
      { host: target.host, port: target.port, method: req.method, path: req.url, headers: { ...req.headers, "x-forwarded-proto": "https" } },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on("error", () => res.writeHead(502).end());
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  return {
    port: (server.address() as AddressInfo).port,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
