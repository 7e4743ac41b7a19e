import "server-only";
/**
 * Node's socket errors count only as system errors of a socket (with
 * `syscall` and `errno`, as Prisma's pg adapter tells them apart): Node's
 * "aborted" for a client that closed its own request also carries
 * ECONNRESET, and is no database outage.
 */
const SOCKET_CODES = new Set(["ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "EPIPE", "EAI_AGAIN"]);
const CONNECTION_CODES = new Set([
  // PostgreSQL: admin/crash shutdown, cannot connect now, connection exceptions
  "57P01",
  "57P02",
  "57P03",
  "08000",
  "08001",
  "08003",
  "08004",
  "08006",
  // Prisma: server unreachable, timed out, closed the connection
  "P1001",
  "P1002",
  "P1017",
]);
const CONNECTION_MESSAGES =
  /connection terminated|terminating connection|connection (is )?closed|database system is (starting up|shutting down|in recovery mode)|can't reach database server|server has closed the connection|timed out fetching a new connection|connect ECONNREFUSED/i;

/**
 * Whether an error means the database cannot be reached right now (down,
 * restarting, recovering, the connection cut): the request did not fail on
 * its own merits and the same request can succeed on a retry. The HTTP core
 * answers these 503 `service_unavailable` with Retry-After instead of a 500.
 * Walks the error's `cause` chain (Prisma's driver adapter wraps pg's errors).
 */
export function isDatabaseUnavailable(err: unknown): boolean {
  let current: unknown = err;
  for (let depth = 0; depth < 6 && current && typeof current === "object"; depth++) {
    const { code, message, cause, syscall, errno } = current as { code?: unknown; message?: unknown; cause?: unknown; syscall?: unknown; errno?: unknown };
    if (typeof code === "string" && CONNECTION_CODES.has(code)) return true;
    if (typeof code === "string" && SOCKET_CODES.has(code) && typeof syscall === "string" && typeof errno === "number") return true;
    if (typeof message === "string" && CONNECTION_MESSAGES.test(message)) return true;
    current = cause;
  }
  return false;
}
