import "server-only";
import net from "node:net";
import type { PGlite } from "@electric-sql/pglite";

/**
 * Serves one PGlite database to many PostgreSQL-protocol clients.
 *
 * PGlite has a single backend session. Interleaving the messages of several
 * clients in it corrupts them: an extended-protocol sequence (Parse, Bind,
 * Execute, Sync) uses the session's unnamed statement and portal, and a
 * transaction spans many sequences. So this server:
 * - forwards a client's messages in *batches* that end at Sync or Query, each
 *   batch executed without interruption;
 * - gives a client exclusive use of the session while its last batch left a
 *   transaction open (ReadyForQuery status T or E) or an extended sequence
 *   unsynced; the other clients' batches wait in order;
 * - rolls back a transaction left open by a client that disconnects.
 * (@electric-sql/pglite-socket forwards message by message and only keeps
 * transactions together, which loses concurrent extended-protocol queries.)
 */

const SSL_REQUEST = 80877103;
const GSSENC_REQUEST = 80877104;
const CANCEL_REQUEST = 80877102;
const PROTOCOL_3 = 196608;

type Batch = { conn: Connection; messages: Buffer[]; synced: boolean };

class Connection {
  buffer: Buffer = Buffer.alloc(0);
  started = false;
  pending: Buffer[] = [];
  closed = false;
  constructor(readonly socket: net.Socket) {}
}

function message(type: string, body: Buffer): Buffer {
  const header = Buffer.alloc(5);
  header.write(type, 0, "ascii");
  header.writeInt32BE(body.length + 4, 1);
  return Buffer.concat([header, body]);
}

const SYNC = message("S", Buffer.alloc(0));
const ROLLBACK = message("Q", Buffer.from("ROLLBACK\0", "utf8"));

/** Transaction status of the last ReadyForQuery ('Z') of a response, if any. */
function lastReadyStatus(response: Buffer): string | undefined {
  let status: string | undefined;
  let offset = 0;
  while (offset + 5 <= response.length) {
    const type = String.fromCharCode(response[offset]!);
    const length = response.readInt32BE(offset + 1);
    if (type === "Z" && offset + 5 < response.length) status = String.fromCharCode(response[offset + 5]!);
    offset += 1 + length;
  }
  return status;
}

export class PgliteWireServer {
  private server: net.Server | null = null;
  private queue: Batch[] = [];
  private owner: Connection | null = null;
  private running = false;
  private connections = new Set<Connection>();

  constructor(private readonly db: PGlite) {}

  async listen(port = 0, host = "127.0.0.1"): Promise<number> {
    this.server = net.createServer((socket) => this.accept(socket));
    await new Promise<void>((resolve, reject) => {
      this.server!.once("error", reject);
      this.server!.listen(port, host, () => resolve());
    });
    return (this.server.address() as net.AddressInfo).port;
  }

  async close(): Promise<void> {
    for (const conn of this.connections) conn.socket.destroy();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
    this.server = null;
  }

  private accept(socket: net.Socket) {
    socket.setNoDelay(true);
    const conn = new Connection(socket);
    this.connections.add(conn);
    socket.on("data", (data) => this.receive(conn, data));
    socket.on("error", () => socket.destroy());
    socket.on("close", () => this.disconnect(conn));
  }

  private receive(conn: Connection, data: Buffer) {
    conn.buffer = conn.buffer.length ? Buffer.concat([conn.buffer, data]) : data;
    for (;;) {
      if (!conn.started) {
        if (conn.buffer.length < 8) return;
        const length = conn.buffer.readInt32BE(0);
        if (conn.buffer.length < length) return;
        const code = conn.buffer.readInt32BE(4);
        const msg = conn.buffer.subarray(0, length);
        conn.buffer = conn.buffer.subarray(length);
        if (code === SSL_REQUEST || code === GSSENC_REQUEST) {
          conn.socket.write("N");
          continue;
        }
        if (code === CANCEL_REQUEST) {
          conn.socket.end();
          return;
        }
        if (code !== PROTOCOL_3) {
          conn.socket.destroy();
          return;
        }
        conn.started = true;
        this.enqueue({ conn, messages: [Buffer.from(msg)], synced: true });
        continue;
      }
      if (conn.buffer.length < 5) return;
      const type = String.fromCharCode(conn.buffer[0]!);
      const length = 1 + conn.buffer.readInt32BE(1);
      if (conn.buffer.length < length) return;
      const msg = Buffer.from(conn.buffer.subarray(0, length));
      conn.buffer = conn.buffer.subarray(length);
      if (type === "X") {
        conn.socket.end();
        return;
      }
      conn.pending.push(msg);
      if (type === "S" || type === "Q" || type === "H") {
        this.enqueue({ conn, messages: conn.pending, synced: type !== "H" });
        conn.pending = [];
      }
    }
  }

  private enqueue(batch: Batch) {
    this.queue.push(batch);
    void this.drain();
  }

  private async drain() {
    if (this.running) return;
    this.running = true;
    try {
      for (;;) {
        const index = this.owner ? this.queue.findIndex((b) => b.conn === this.owner) : 0;
        if (index < 0 || this.queue.length === 0) return;
        const [batch] = this.queue.splice(index, 1);
        await this.execute(batch!);
      }
    } finally {
      this.running = false;
    }
  }

  private async execute(batch: Batch) {
    const out: Buffer[] = [];
    try {
      // One call for the whole batch; each chunk is copied at once because
      // PGlite hands out views of WebAssembly memory that it reuses.
      const input = new Uint8Array(Buffer.concat(batch.messages));
      await this.db.runExclusive(() =>
        this.db.execProtocolRawStream(input, { onRawData: (d) => out.push(Buffer.from(d)) }),
      );
    } catch (err) {
      batch.conn.socket.destroy(err as Error);
    }
    const response = Buffer.concat(out);
    if (!batch.conn.closed && response.length) batch.conn.socket.write(response);
    const status = lastReadyStatus(response);
    const holdsSession = !batch.synced || (status !== undefined && status !== "I");
    this.owner = holdsSession && !batch.conn.closed ? batch.conn : null;
    if (holdsSession && batch.conn.closed) await this.reset();
  }

  /** Leaves the shared session clean after a client vanished mid-sequence or mid-transaction. */
  private async reset() {
    await this.db.runExclusive(async () => {
      for (const msg of [SYNC, ROLLBACK]) {
        await this.db.execProtocolRawStream(new Uint8Array(msg), { onRawData: () => {} }).catch(() => {});
      }
    });
  }

  private disconnect(conn: Connection) {
    conn.closed = true;
    this.connections.delete(conn);
    this.queue = this.queue.filter((b) => b.conn !== conn);
    if (this.owner === conn) {
      this.owner = null;
      void this.reset().then(() => this.drain());
    }
  }
}
