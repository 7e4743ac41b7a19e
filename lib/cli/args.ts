import { parseArgs as parseWithNode } from "node:util";

/**
 * The admin CLI's arguments, parsed by Node's own `util.parseArgs`: the
 * command name first, then its flags. Each command's flags come from its
 * usage line (`--name VALUE` takes a value, a bare `--flag` is a switch), so
 * the usage shown is exactly what is accepted, and an unknown or misspelt
 * flag is a usage error instead of being ignored.
 */
export type Flags = Record<string, string | true>;
export type ParsedArgs = { command: string | undefined; flags: Flags };

export class UsageError extends Error {}

type OptionSpec = Record<string, { type: "string" | "boolean" }>;

/** `--email E [--name N] [--approve]` -> email and name take values, approve is a switch. */
export function optionsOfUsage(usage: string): OptionSpec {
  const options: OptionSpec = {};
  for (const m of usage.matchAll(/--([a-z][a-z0-9-]*)(\s+(?!--)[^\s\]|][^\s\]]*)?/g)) options[m[1]!] = { type: m[2] ? "string" : "boolean" };
  return options;
}

/** The command name and its flags; `usageOf` gives a command's usage line (undefined: unknown command, flags left unread). */
export function parseArgs(argv: string[], usageOf: (command: string) => string | undefined): ParsedArgs {
  const [command, ...rest] = argv;
  if (command === undefined || command.startsWith("-")) return { command: undefined, flags: {} };
  const usage = usageOf(command);
  if (usage === undefined) return { command, flags: {} };
  try {
    const { values } = parseWithNode({ args: rest, options: optionsOfUsage(usage), strict: true, allowPositionals: false });
    const flags: Flags = {};
    for (const [name, value] of Object.entries(values)) if (typeof value === "string" || value === true) flags[name] = value;
    return { command, flags };
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
}

export function requireFlag(flags: Flags, name: string): string {
  const value = flags[name];
  if (typeof value !== "string" || value === "") throw new UsageError(`--${name} is required`);
  return value;
}
