import http from "node:http";
import https from "node:https";
import type { AddressInfo } from "node:net";
import { MemoryDedupStore, verifyWebhook, type VerifiedEvent } from "@/sdk/src/webhooks";

/**
 * WEBHOOK_ALLOWED_NETWORKS for a server whose tests deliver to TestReceivers
 * on this machine: the configured way in for loopback (the address guard
 * refuses it otherwise, for test apps too). Also for the CLI's env, which
 * checks a webhook URL against it at registration.
 */
export const LOCAL_RECEIVER_NETWORKS = { WEBHOOK_ALLOWED_NETWORKS: "127.0.0.1/32,::1/128" } as const;

export type Received = {
  headers: http.IncomingHttpHeaders;
  body: string;
  status: number;
  event?: VerifiedEvent;
  duplicate?: boolean;
  error?: string;
  /** Received while `hold` was on: never answered. */
  held?: boolean;
};

export type ReceiverOptions = {
  /** Address to listen on (default 127.0.0.1). */
  host?: string;
  /** Serve HTTPS with this key and certificate. */
  tls?: { key: string | Buffer; cert: string | Buffer };
  /** Host name for `url` (default: the listening address). */
  urlHost?: string;
};

/**
 * A real webhook receiver for tests, built on the receiver helper a customer
 * would use: verifies signatures (400 when invalid), de-duplicates on the
 * event id, and can be told to fail its next N requests with a 500, to
 * leave the next N unanswered or close their connections, or to hold
 * requests open without answering (`hold`). Plain HTTP on 127.0.0.1 by
 * default; HTTPS on any address with `tls`.
 */
export class TestReceiver {
  readonly received: Received[] = [];
  readonly processed: VerifiedEvent[] = [];
  failNext = 0;
  /** While true, verified requests are recorded and left unanswered (as a receiver that hangs). */
  hold = false;
  /** The next N requests are left unanswered (the sender's timeout ends them), then answering resumes. */
  hangNext = 0;
  /** The next N requests get their connection closed with no answer at all. */
  dropNext = 0;
  /** Verified requests are answered this many milliseconds late (a slow receiver). */
  answerDelayMs = 0;
  secret = "";
  /** A careless receiver: answers 200 without checking the signature (what the bad-signature test is there to catch). */
  acceptUnverified = false;
  private server: http.Server | https.Server | null = null;
  private store = new MemoryDedupStore();
  private options: ReceiverOptions = {};
  port = 0;

  get url() {
    const host = this.options.urlHost ?? this.options.host ?? "127.0.0.1";
    return `${this.options.tls ? "https" : "http"}://${host}:${this.port}/hook`;
  }

  async start(port = 0, options: ReceiverOptions = {}): Promise<this> {
    this.options = options;
    const handler = (req: http.IncomingMessage, res: http.ServerResponse) => {
      let body = "";
      req.on("data", (c) => (body += c));
      req.on("end", async () => {
        const record: Received = { headers: req.headers, body, status: 200 };
        this.received.push(record);
        if (this.failNext > 0) {
          this.failNext--;
          record.status = 500;
          res.writeHead(500).end("temporarily broken");
          return;
        }
        if (this.hangNext > 0) {
          this.hangNext--;
          record.status = 0;
          record.held = true;
          return;
        }
        if (this.dropNext > 0) {
          this.dropNext--;
          record.status = 0;
          req.socket.destroy();
          return;
        }
        try {
          record.event = this.acceptUnverified ? (JSON.parse(body) as VerifiedEvent) : verifyWebhook(body, req.headers, this.secret);
        } catch (err) {
          record.status = 400;
          record.error = (err as Error).message;
          res.writeHead(400).end(record.error);
          return;
        }
        if (this.hold) {
          record.status = 0;
          record.held = true;
          return;
        }
        if (this.answerDelayMs > 0) await new Promise((r) => setTimeout(r, this.answerDelayMs));
        record.duplicate = !(await this.store.claim(record.event.event_id));
        if (!record.duplicate) this.processed.push(record.event);
        res.writeHead(200, { "content-type": "application/json" }).end('{"received":true}');
      });
    };
    this.server = options.tls ? https.createServer({ key: options.tls.key, cert: options.tls.cert }, handler) : http.createServer(handler);
    await new Promise<void>((resolve) => this.server!.listen(port, options.host ?? "127.0.0.1", resolve));
    this.port = (this.server.address() as AddressInfo).port;
    return this;
  }

  async stop() {
    const server = this.server;
    this.server = null;
    if (!server) return;
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    server.closeAllConnections(); // held requests too
    await closed;
  }

  /** Waits until `predicate` holds (polling), or fails after `ms`. */
  async waitFor(predicate: (r: this) => boolean, ms = 20_000) {
    const deadline = Date.now() + ms;
    while (!predicate(this)) {
      if (Date.now() > deadline) throw new Error(`receiver: condition not met in ${ms} ms; got ${this.received.length} requests`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }
}
