import { spawn } from "node:child_process";
import path from "node:path";
import { baseEnv, ROOT } from "./server";
import { processSlot, setProcessSlotsAside } from "@/lib/process-slots";

export type CliResult = { code: number | null; stdout: string; stderr: string; json: Record<string, any> | undefined };

const TSX = path.join(ROOT, "node_modules", "tsx", "dist", "cli.mjs");

/** Runs the admin CLI exactly as `npm run -s svc -- <args>` does. */
export function runCli(args: string[], env: Record<string, string>): Promise<CliResult> {
  return runScript("bin/svc.ts", args, env);
}

/** Runs one of bin/'s entry points as its npm script does (`bin/migrate.ts` is `npm run db:migrate`). */
export function runScript(script: string, args: string[], env: Record<string, string>): Promise<CliResult> {
  return runProcess(process.execPath, [TSX, script, ...args], env);
}

/** Runs a command in the project's folder with the test environment plus `env`; its output, exit code and output as JSON when it is. */
export function runProcess(command: string, args: string[], env: Record<string, string>): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: ROOT, env: baseEnv(env) });
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

/**
 * Runs a CLI command that must succeed; returns its JSON. The command's own
 * function runs in this process (what `createTenant` does): a CLI process
 * costs two to three seconds of CPU (tsx, the module graph), tests use
 * these commands by the hundred to set installs up, and on a 2-core machine
 * those processes were a quarter of the suite's CPU. On another install
 * than the shared server's, the command runs with this process's own
 * database handles, key ring and settings set aside, and closes what it
 * opened for that install before they are put back. What
 * the CLI as a process does (its flags, its output, its exit codes) is
 * tested with `cliProcess` and `runCli` (cli.test.ts,
 * registry-import.test.ts, webhooks-production.test.ts).
 */
export function cli(args: string[], env: Record<string, string>): Promise<Record<string, any>> {
  // One at a time: a command runs under its install's environment, which is this process's (Promise.all of commands is fine).
  const run = commandsInTurn.then(() => commandInThisProcess(args, env));
  commandsInTurn = run.catch(() => {});
  return run;
}

let commandsInTurn: Promise<unknown> = Promise.resolve();

async function commandInThisProcess(args: string[], env: Record<string, string>): Promise<Record<string, any>> {
  if (await onSharedDatabase(env)) return inThisProcess(args, env);
  const { closeDatabase } = await import("@/lib/db/client");
  const { setDatabaseRole } = await import("@/lib/db/connection");
  // This process's handles, key ring and settings stay as they are, set aside (the data migrations' registry is the same for every install).
  const restore = setProcessSlotsAside(["dataMigrations"]);
  // As the CLI process declares itself: on an embedded install no process hosts, it hosts only for the command.
  setDatabaseRole("cli");
  try {
    return await inThisProcess(args, env);
  } finally {
    await closeDatabase();
    const made = restore();
    await (made.get("redis") as { quit(): Promise<unknown> } | null | undefined)?.quit().catch(() => {});
  }
}

async function onSharedDatabase(env: Record<string, string>): Promise<boolean> {
  let sharedEnv: Record<string, string>;
  try {
    const { shared } = await import("./api");
    sharedEnv = shared().env;
  } catch {
    return false; // outside the integration tests (a benchmark)
  }
  return ["DATABASE_URL", "DATA_DIR", "ENCRYPTION_KEY"].every((key) => env[key] === sharedEnv[key]);
}

/** The command's function, under the environment the CLI process would get (`baseEnv(env)`), restored afterwards. */
async function inThisProcess(args: string[], env: Record<string, string>): Promise<Record<string, any>> {
  const { parseArgs } = await import("@/lib/cli/args");
  const { COMMANDS } = await import("@/lib/cli/commands");
  const parsed = parseArgs(args, (name) => (Object.hasOwn(COMMANDS, name) ? COMMANDS[name]!.usage : undefined));
  const command = parsed.command && Object.hasOwn(COMMANDS, parsed.command) ? COMMANDS[parsed.command] : undefined;
  if (!command) throw new Error(`svc ${args.join(" ")}: unknown command`);
  const before = { ...process.env };
  const config = processSlot<unknown>("env");
  const configBefore = config.value;
  const next = baseEnv(env);
  for (const key of Object.keys(process.env)) if (!(key in next)) delete process.env[key];
  Object.assign(process.env, next);
  config.value = undefined; // lib/config/env.ts reads the environment again
  try {
    // Printed as JSON by the CLI: dates become strings, undefined fields go.
    return JSON.parse(JSON.stringify(await command.run(parsed.flags)));
  } catch (err) {
    throw new Error(`svc ${args.join(" ")} failed: ${(err as Error).message}`);
  } finally {
    for (const key of Object.keys(process.env)) if (!(key in before)) delete process.env[key];
    Object.assign(process.env, before);
    config.value = configBefore; // as this process had read it (a test may have read settings it then removed)
  }
}

/** Runs a CLI command as a process (as `npm run -s svc -- <args>` does) that must succeed; returns its JSON. */
export async function cliProcess(args: string[], env: Record<string, string>): Promise<Record<string, any>> {
  const result = await runCli(args, env);
  if (result.code !== 0 || !result.json) {
    throw new Error(`svc ${args.join(" ")} failed (${result.code}):\n${result.stderr}\n${result.stdout}`);
  }
  return result.json;
}
