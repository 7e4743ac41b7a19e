import { spawn, type ChildProcess } from "node:child_process";
import { appendFileSync, writeFileSync } from "node:fs";
import net from "node:net";
import path from "node:path";

export type RunningServer = {
  url: string;
  port: number;
  stop(): Promise<void>;
  /** Ends the process with SIGKILL, as a crash or an OOM kill would: no shutdown code runs. */
  stopHard(): Promise<void>;
  /** Sends the process a signal (SIGTERM: the drain a deployment starts). */
  signal(name: NodeJS.Signals): void;
  /** Resolves with the process's exit code once it has exited. */
  exited: Promise<number | null>;
  output(): string;
};

export const ROOT = path.resolve(import.meta.dirname, "..", "..");

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.listen(0, "127.0.0.1", () => {
      const port = (srv.address() as net.AddressInfo).port;
      srv.close(() => resolve(port));
    });
    srv.on("error", reject);
  });
}

/** The environment a test server and the CLI share, minus the caller's own database settings. */
export function baseEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: Record<string, string | undefined> = { ...process.env };
  for (const k of ["DATABASE_URL", "DATA_DIR", "REDIS_URL", "TRUST_PROXY", "RATE_LIMIT_PER_MINUTE", "PORT", "PUBLIC_BASE_URL"]) {
    delete env[k];
  }
  return { ...env, NEXT_TELEMETRY_DISABLED: "1", NO_COLOR: "1", ...extra } as unknown as NodeJS.ProcessEnv;
}

/**
 * Starts the real server, `node server.mjs` (production, after `next build`)
 * or `node server.mjs --dev`, and waits for /api/health.
 */
export async function startServer(
  env: Record<string, string>,
  options: {
    dev?: boolean;
    /** Health statuses that mean "up" (default 200; 503 for a server started with a dependency down). */
    upWhen?: number[];
    /** Also write the server's output to this file, for reading after a failed run. */
    logFile?: string;
    /** Listen on this port (a restart after a crash keeps its address); default a free one. */
    port?: number;
  } = {},
): Promise<RunningServer> {
  // A port found free can be taken by another process before the server listens
  // on it (it boots for seconds first): the server then exits (server.mjs says
  // "cannot listen") and, if the port was ours to choose, starts again on another.
  for (let attempt = 1; ; attempt++) {
    try {
      return await startServerOnce(env, options, options.port ?? (await freePort()));
    } catch (err) {
      const portTaken = err instanceof ServerExited && /cannot listen on .*EADDRINUSE/.test(err.output);
      if (!portTaken || options.port !== undefined || attempt === 3) throw err;
    }
  }
}

async function startServerOnce(env: Record<string, string>, options: Parameters<typeof startServer>[1] & {}, port: number): Promise<RunningServer> {
  const url = `http://127.0.0.1:${port}`;
  const child: ChildProcess = spawn(process.execPath, ["server.mjs", ...(options.dev ? ["--dev"] : [])], {
    cwd: ROOT,
    env: baseEnv({
      NODE_ENV: options.dev ? "development" : "production",
      HOST: "127.0.0.1",
      PORT: String(port),
      PUBLIC_BASE_URL: url,
      // Most test servers never run a check: they load the models on first use only.
      VISION_PRELOAD: "off",
      // Test servers share one database: only a server that asks for them (JOB_WORKER=on) takes
      // background jobs, so a test's invitation mails go through its own server and mail server.
      JOB_WORKER: "off",
      ...env,
    }),
    stdio: ["ignore", "pipe", "pipe"],
  });
  const watched = watchProcess(child, "server", options.logFile);
  await watched.waitUntilUp(`${url}/api/health`, options.upWhen ?? [200], 120_000);
  return { url, port, output: watched.output, stop: watched.stop, stopHard: watched.stopHard, signal: (name) => child.kill(name), exited: watched.exited };
}

/** A watched process that exited before it came up; `output` is what it printed. */
export class ServerExited extends Error {
  constructor(
    name: string,
    readonly code: number | null,
    readonly output: string,
  ) {
    super(`${name} exited with ${code}:\n${output}`);
  }
}

/** The children still running when this test process exits (a test that timed out never reached its cleanup). */
const running = new Set<ChildProcess>();
let killingOnExit = false;
function outliveNoTest(child: ChildProcess) {
  if (!killingOnExit) process.once("exit", () => running.forEach((c) => c.kill("SIGKILL")));
  killingOnExit = true;
  running.add(child);
  child.once("exit", () => running.delete(child));
}

/**
 * A child process of a test (a server, the example app): its output kept,
 * `waitUntilUp` polls `probeUrl` until it answers one of `statuses` (or the
 * process exits, or time runs out: it is then killed, and the error carries
 * its output), `stop` ends it (SIGTERM, SIGKILL after 10 s), `exited`
 * resolves with its exit code.
 */
export function watchProcess(child: ChildProcess, name: string, logFile?: string) {
  outliveNoTest(child);
  let log = "";
  if (logFile) writeFileSync(logFile, "");
  const keep = (d: Buffer) => {
    log += d;
    if (logFile) appendFileSync(logFile, d);
  };
  child.stdout?.on("data", keep);
  child.stderr?.on("data", keep);
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  return {
    exited,
    output: () => log,
    async waitUntilUp(probeUrl: string, statuses: number[], timeoutMs: number) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        if (child.exitCode !== null) throw new ServerExited(name, child.exitCode, log);
        const up = await fetch(probeUrl).then((res) => statuses.includes(res.status), () => false); // not listening yet
        if (up) return;
        if (Date.now() > deadline) {
          child.kill("SIGKILL");
          throw new Error(`${name} did not come up:\n${log}`);
        }
        await new Promise((r) => setTimeout(r, 200));
      }
    },
    async stopHard() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill("SIGKILL");
      await exited;
    },
    async stop() {
      if (child.exitCode !== null) return;
      child.kill("SIGTERM");
      const timer = setTimeout(() => child.kill("SIGKILL"), 10_000);
      await exited;
      clearTimeout(timer);
    },
  };
}
