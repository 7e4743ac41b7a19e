import http from "node:http";
import type { AddressInfo } from "node:net";
import { MemoryDedupStore, verifyWebhook, type VerifiedEvent } from "@/lib/webhooks/receiver";

export type Received = {
  headers: http.IncomingHttpHeaders;
  body: string;
  status: number;
  event?: VerifiedEvent;
  duplicate?: boolean;
  error?: string;
};

/**
 * A real webhook receiver for tests, built on the receiver helper a customer
 * would use: verifies signatures (400 when invalid), de-duplicates on the
 * event id, and can be told to fail its first N requests with a 500.
 */
export class TestReceiver {
  readonly received: Received[] = [];
  readonly processed: VerifiedEvent[] = [];
  failNext = 0;
  secret = "";
  private server: http.Server | null = null;
  private store = new MemoryDedupStore();
  port = 0;

  get url() {
    return `http://127.0.0.1:${this.port}/hook`;
  }

  async start(port = 0): Promise<this> {
    this.server = http.createServer((req, res) => {
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
        try {
          record.event = verifyWebhook({ rawBody: body, headers: req.headers, secret: this.secret });
        } catch (err) {
          record.status = 400;
          record.error = (err as Error).message;
          res.writeHead(400).end(record.error);
          return;
        }
        record.duplicate = !(await this.store.claim(record.event.event_id));
        if (!record.duplicate) this.processed.push(record.event);
        res.writeHead(200, { "content-type": "application/json" }).end('{"received":true}');
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(port, "127.0.0.1", resolve));
    this.port = (this.server.address() as AddressInfo).port;
    return this;
  }

  async stop() {
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
    this.server?.closeAllConnections();
    this.server = null;
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
