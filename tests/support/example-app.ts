import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { baseEnv, ROOT, watchProcess } from "./server";

export const EXAMPLE_DIR = path.join(ROOT, "examples", "nextjs-integration");

/**
 * Builds the example integration as its README says (`npm run build`: the
 * SDK, then `next build`). With SKIP_BUILD=1 an existing build is reused,
 * as scripts/test.mjs does for the service itself.
 */
export function buildExample(): void {
  if (process.env.SKIP_BUILD && fs.existsSync(path.join(EXAMPLE_DIR, ".next", "BUILD_ID"))) return;
  const build = spawnSync("npm", ["run", "build"], { cwd: EXAMPLE_DIR, env: baseEnv({}), encoding: "utf8" });
  if (build.status !== 0) throw new Error(`the example did not build:\n${build.stdout}\n${build.stderr}`);
}

export type RunningExample = { url: string; stop(): Promise<void>; output(): string };

/** `next start` (NODE_ENV=production) on 127.0.0.1:`port` with `env`; waits for its home page. */
export async function startExample(port: number, env: Record<string, string>): Promise<RunningExample> {
  const url = `http://127.0.0.1:${port}`;
  const child: ChildProcess = spawn(path.join(ROOT, "node_modules", ".bin", "next"), ["start", "--hostname", "127.0.0.1", "--port", String(port)], {
    cwd: EXAMPLE_DIR,
    env: baseEnv({ NODE_ENV: "production", ...env }),
    stdio: ["ignore", "pipe", "pipe"],
  });
  const watched = watchProcess(child, "the example");
  await watched.waitUntilUp(url, [200], 60_000);
  return { url, output: watched.output, stop: watched.stop };
}
