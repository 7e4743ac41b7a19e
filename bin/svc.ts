// The admin CLI: `npm run -s svc -- <command> [flags]`. Prints exactly one
// JSON object on stdout; on failure a JSON error on stderr and exit code 1
// (2 for a usage error).
try {
  process.loadEnvFile(".env");
} catch {
  // no .env file
}
import { parseArgs, UsageError } from "@/lib/cli/args";
import { COMMANDS, usage } from "@/lib/cli/commands";
import { setDatabaseRole } from "@/lib/db/connection";
import { closeDatabase } from "@/lib/db/client";
import { ApiError } from "@/lib/http/api-error";
import { registerAppDataMigrations } from "@/lib/operations/data-migrations";

function fail(code: string, message: string, exitCode: number, details?: unknown): never {
  process.stderr.write(`${JSON.stringify({ error: { code, message, ...(details ? { details } : {}) } })}\n`);
  process.exit(exitCode);
}

async function main() {
  let parsed;
  try {
    parsed = parseArgs(process.argv.slice(2), (name) => (Object.hasOwn(COMMANDS, name) ? COMMANDS[name]!.usage : undefined));
  } catch (err) {
    const name = process.argv[2]!;
    fail("usage", `${(err as Error).message}\nusage: ${name} ${COMMANDS[name]!.usage}`, 2);
  }
  const command = parsed.command && Object.hasOwn(COMMANDS, parsed.command) ? COMMANDS[parsed.command] : undefined;
  if (!command) fail("usage", parsed.command ? `Unknown command "${parsed.command}"\n${usage()}` : usage(), 2);

  setDatabaseRole("cli");
  registerAppDataMigrations();
  let result: object;
  try {
    result = await command.run(parsed.flags);
  } catch (err) {
    if (err instanceof UsageError) fail("usage", `${err.message}\nusage: ${parsed.command} ${command.usage}`, 2);
    if (err instanceof ApiError) fail(err.code, err.message, 1, Array.isArray(err.data) ? undefined : err.data);
    fail("error", (err as Error).message ?? String(err), 1);
  } finally {
    await closeDatabase();
  }
  process.stdout.write(`${JSON.stringify(result)}\n`);
  process.exit(0);
}

void main();
