/** `--key value` and bare `--flag` (true) after the command name. */
export type ParsedArgs = { command: string | undefined; flags: Record<string, string | true> };

export function parseArgs(argv: string[]): ParsedArgs {
  const [command, ...rest] = argv;
  const flags: Record<string, string | true> = {};
  for (let i = 0; i < rest.length; i++) {
    const token = rest[i]!;
    if (!token.startsWith("--")) throw new UsageError(`Unexpected argument "${token}"`);
    const [name, inline] = token.slice(2).split(/=(.*)/s, 2);
    if (!name) throw new UsageError(`Bad flag "${token}"`);
    if (inline !== undefined) flags[name] = inline;
    else if (rest[i + 1] !== undefined && !rest[i + 1]!.startsWith("--")) flags[name] = rest[++i]!;
    else flags[name] = true;
  }
  return { command, flags };
}

export class UsageError extends Error {}

export function requireFlag(flags: ParsedArgs["flags"], name: string): string {
  const value = flags[name];
  if (typeof value !== "string" || value === "") throw new UsageError(`--${name} is required`);
  return value;
}
