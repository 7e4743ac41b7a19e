import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import net from "node:net";
import path from "node:path";
import { freePort } from "./server";

/**
 * A PostgreSQL cluster and a Redis server of a test's own, on free ports in
 * a temporary folder, so the fault tests can crash and restart them without
 * touching the machine's services that other test files use. PostgreSQL's
 * binaries come from Debian's package (/usr/lib/postgresql/<version>/bin);
 * as root the cluster runs as the `postgres` user, as PostgreSQL requires.
 */
function postgresBin(): string | undefined {
  const base = "/usr/lib/postgresql";
  if (!fs.existsSync(base)) return undefined;
  const version = fs.readdirSync(base).sort((a, b) => Number(b) - Number(a))[0];
  return version ? path.join(base, version, "bin") : undefined;
}

export const privateServicesAvailable = () => Boolean(postgresBin()) && fs.existsSync("/usr/bin/redis-server");

const asPostgres = (command: string, args: string[]) =>
  process.getuid?.() === 0 ? (["runuser", ["-u", "postgres", "--", command, ...args]] as const) : ([command, args] as const);

export type PrivatePostgres = {
  url: string;
  /** Stops the server the way a crash or a kill -9 would (`-m immediate`: no checkpoint, recovery at the next start). */
  crash(): void;
  start(): void;
  destroy(): void;
};

export async function startPrivatePostgres(): Promise<PrivatePostgres> {
  const bin = postgresBin();
  if (!bin) throw new Error("PostgreSQL's binaries are not installed (apt-get install postgresql)");
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "svc-private-pg-"));
  const data = path.join(dir, "data");
  if (process.getuid?.() === 0) execFileSync("chown", ["-R", "postgres", dir]);
  const port = await freePort();
  const run = (command: string, args: string[]) => {
    const [cmd, argv] = asPostgres(path.join(bin, command), args);
    execFileSync(cmd, [...argv], { stdio: "pipe", cwd: dir });
  };
  run("initdb", ["-D", data, "-A", "trust", "-U", "postgres", "--no-sync"]);
  const pgCtl = (args: string[]) =>
    run("pg_ctl", ["-D", data, "-l", path.join(dir, "log"), "-w", "-t", "60", ...args]);
  const start = () => pgCtl(["-o", `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=100`, "start"]);
  start();
  return {
    url: `postgresql://postgres@127.0.0.1:${port}/postgres`,
    crash: () => pgCtl(["-m", "immediate", "stop"]),
    start,
    destroy() {
      try {
        pgCtl(["-m", "immediate", "stop"]);
      } catch {
        // already stopped
      }
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

export type PrivateRedis = { url: string; stop(): Promise<void>; start(): Promise<void> };

export async function startPrivateRedis(): Promise<PrivateRedis> {
  const port = await freePort();
  let child: ChildProcess | undefined;
  const start = async () => {
    child = spawn("/usr/bin/redis-server", ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"], { stdio: "ignore" });
    for (let i = 0; i < 100; i++) {
      const up = await new Promise<boolean>((resolve) => {
        const socket = net.connect(port, "127.0.0.1");
        socket.once("connect", () => (socket.destroy(), resolve(true)));
        socket.once("error", () => resolve(false));
      });
      if (up) return;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error("redis-server did not start");
  };
  await start();
  return {
    url: `redis://127.0.0.1:${port}`,
    async stop() {
      const exited = new Promise((resolve) => child?.once("exit", resolve));
      child?.kill("SIGKILL");
      await exited;
    },
    start,
  };
}
