/** Socket-level failures and PostgreSQL's "connection exception" / "operator intervention" codes. */
const UNAVAILABLE_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "EPIPE",
  "ENOTFOUND",
  "EAI_AGAIN",
  "EHOSTUNREACH",
  "57P01", // admin_shutdown
  "57P02", // crash_shutdown
  "57P03", // cannot_connect_now (starting up, shutting down)
  "08000",
  "08001",
  "08003",
  "08004",
  "08006",
  "P1001", // Prisma: can't reach the database server
  "P1002",
  "P1017", // Prisma: server closed the connection
]);

/**
 * node-postgres's own wording for a lost or never-made connection, or a read left unanswered
 * (query_timeout: data/sql.ts); these errors carry no code.
 */
const UNAVAILABLE_MESSAGE =
  /Connection terminated|timeout exceeded when trying to connect|Query read timeout|Client has encountered a connection error|Connection refused|Can't reach database server|the database system is (starting up|shutting down)/i;

/**
 * Whether `error` (or an error it wraps: Prisma and the pool wrap the driver's) says the database
 * cannot be reached, as opposed to a query that failed: the first is a 503 to retry, the second a bug.
 */
export const isDatabaseUnavailable = (error: unknown): boolean => {
  const seen = new Set<unknown>();
  let current: unknown = error;
  while (current && typeof current === "object" && !seen.has(current)) {
    seen.add(current);
    const e = current as { code?: unknown; message?: unknown; cause?: unknown; errors?: unknown };
    if (typeof e.code === "string" && UNAVAILABLE_CODES.has(e.code)) return true;
    if (typeof e.message === "string" && UNAVAILABLE_MESSAGE.test(e.message)) return true;
    // Node's AggregateError (every address refused) holds the socket errors.
    if (Array.isArray(e.errors) && e.errors.some((inner) => isDatabaseUnavailable(inner))) return true;
    current = e.cause;
  }
  return false;
};
