/** One-line JSON logs on stdout/stderr (collected by whatever runs the process). */
type Fields = Record<string, unknown>;

function write(level: "info" | "warn" | "error", message: string, fields: Fields) {
  const line = JSON.stringify({ level, time: new Date().toISOString(), message, ...fields });
  (level === "info" ? process.stdout : process.stderr).write(`${line}\n`);
}

export const logger = {
  info: (message: string, fields: Fields = {}) => write("info", message, fields),
  warn: (message: string, fields: Fields = {}) => write("warn", message, fields),
  error: (message: string, fields: Fields = {}) => write("error", message, fields),
};

export function describeError(err: unknown): Fields {
  if (err instanceof Error) return { error: err.message, name: err.name, stack: err.stack };
  return { error: String(err) };
}
