import "server-only";
import fs from "node:fs";
import net from "node:net";
import path from "node:path";

/**
 * Embedded PostgreSQL (PGlite) shared by every local process.
 *
 * PGlite is a single-process database, but the web server, the admin CLI and
 * workers must all reach the same data. The first process to start becomes
 * the *host*: it opens the data directory and serves it over the PostgreSQL
 * wire protocol on a random 127.0.0.1 port (pglite-wire-server.ts, which
 * keeps each client's queries and transactions whole). Every other process finds the host in
 * `DATA_DIR/pglite.host.json` and connects as an ordinary client. So all
 * code talks to Postgres the same way, embedded or not.
 */

export type EmbeddedConnection = {
  url: string;
  /** True when this process owns the data directory. */
  owner: boolean;
  /** Called by the owner once the schema is migrated: clients may connect. */
  publish(): void;
  close(): Promise<void>;
};

type HostInfo = { pid: number; port: number; role: EmbeddedRole };

/**
 * A long-lived "server" (web server, worker) never becomes the client of a
 * short-lived "cli" host: it waits for the CLI command to finish and then
 * hosts the database itself, so it never loses its database mid-run.
 */
export type EmbeddedRole = "server" | "cli";

const LOCK_WAIT_MS = 60_000;

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}

function canConnect(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host: "127.0.0.1", port });
    socket.setTimeout(2000);
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("timeout", () => {
      socket.destroy();
      resolve(false);
    });
    socket.once("error", () => resolve(false));
  });
}

function readJson<T>(file: string): T | undefined {
  try {
    return JSON.parse(fs.readFileSync(file, "utf8")) as T;
  } catch {
    return undefined;
  }
}

function urlFor(port: number): string {
  return `postgresql://postgres:postgres@127.0.0.1:${port}/postgres?sslmode=disable`;
}

function tryLock(lockFile: string): boolean {
  try {
    fs.writeFileSync(lockFile, JSON.stringify({ pid: process.pid }), { flag: "wx" });
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
    const holder = readJson<{ pid: number }>(lockFile);
    if (holder && holder.pid !== process.pid && isAlive(holder.pid)) return false;
    // Stale lock of a process that died: take it over.
    fs.rmSync(lockFile, { force: true });
    return tryLock(lockFile);
  }
}

export async function connectEmbedded(dataDir: string, role: EmbeddedRole): Promise<EmbeddedConnection> {
  fs.mkdirSync(dataDir, { recursive: true });
  const hostFile = path.join(dataDir, "pglite.host.json");
  const lockFile = path.join(dataDir, "pglite.lock");
  const deadline = Date.now() + LOCK_WAIT_MS;

  for (;;) {
    const host = readJson<HostInfo>(hostFile);
    const usable = host && host.pid !== process.pid && isAlive(host.pid) && !(role === "server" && host.role === "cli");
    if (host && usable && (await canConnect(host.port))) {
      return { url: urlFor(host.port), owner: false, publish() {}, async close() {} };
    }
    if (tryLock(lockFile)) break;
    if (Date.now() > deadline) {
      throw new Error(`Timed out waiting for the embedded database host (${lockFile})`);
    }
    await new Promise((r) => setTimeout(r, 150));
  }

  // We own the data directory now.
  fs.rmSync(hostFile, { force: true });
  const { PGlite } = await import("@electric-sql/pglite");
  const { PgliteWireServer } = await import("./pglite-wire-server");
  let db: InstanceType<typeof PGlite>;
  try {
    db = await PGlite.create({ dataDir: path.join(dataDir, "pglite") });
  } catch (err) {
    fs.rmSync(lockFile, { force: true });
    throw err;
  }
  const server = new PgliteWireServer(db);
  const port = await server.listen(0, "127.0.0.1");

  const cleanup = () => {
    const current = readJson<HostInfo>(hostFile);
    if (current?.pid === process.pid) fs.rmSync(hostFile, { force: true });
    const lock = readJson<{ pid: number }>(lockFile);
    if (lock?.pid === process.pid) fs.rmSync(lockFile, { force: true });
  };
  process.once("exit", cleanup);

  let closed = false;
  return {
    url: urlFor(port),
    owner: true,
    publish() {
      const tmp = `${hostFile}.${process.pid}.tmp`;
      fs.writeFileSync(tmp, JSON.stringify({ pid: process.pid, port, role } satisfies HostInfo));
      fs.renameSync(tmp, hostFile);
    },
    async close() {
      if (closed) return;
      closed = true;
      cleanup();
      process.off("exit", cleanup);
      await server.close();
      await db.close();
    },
  };
}
