import { spawn } from "node:child_process";
import path from "node:path";
import { baseEnv, ROOT } from "./server";

export type CliResult = { code: number | null; stdout: string; stderr: string; json: Record<string, any> | undefined };

const TSX = path.join(ROOT, "node_modules", "tsx", "dist", "cli.mjs");

/** Runs the admin CLI exactly as `npm run -s svc -- <args>` does. */
export function runCli(args: string[], env: Record<string, string>): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [TSX, "bin/svc.ts", ...args], { cwd: ROOT, env: baseEnv(env) });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    child.on("error", reject);
    child.on("close", (code) => {
      let json: Record<string, any> | undefined;
      try {
        json = JSON.parse(stdout);
      } catch {
        json = undefined;
      }
      resolve({ code, stdout, stderr, json });
    });
  });
}

/** Runs a CLI command that must succeed; returns its JSON. */
export async function cli(args: string[], env: Record<string, string>): Promise<Record<string, any>> {
  const result = await runCli(args, env);
  if (result.code !== 0 || !result.json) {
    throw new Error(`svc ${args.join(" ")} failed (${result.code}):\n${result.stderr}\n${result.stdout}`);
  }
  return result.json;
}
