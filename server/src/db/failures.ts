// Whether a failure is the database's (or the machine's) rather than the work's: retrying the
// same work later may succeed. Callers that retry a unit of work a few times and then set it
// aside (a mail that cannot be taken in, email.ingest.ts) must not set it aside for these: the
// work is fine, the database is away.

/** SQLSTATE classes: 08 connection, 40 rollback (serialisation, deadlock), 53 resources, 57 operator, 58 system. */
const UNAVAILABLE_CLASSES = new Set(['08', '40', '53', '57', '58']);

/** What drivers say when the connection itself is gone (pg, Kysely, PGlite). */
const UNAVAILABLE_MESSAGES = [
  /connection terminated/i,
  /timeout exceeded when trying to connect/i,
  /driver has already been destroyed/i,
  /client has encountered a connection error/i,
  /database is closed|pglite is closed/i,
];

/** True when `error` says the database or the system failed (retry later), not that the data is wrong. */
export function isDatabaseUnavailable(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string') {
    // SQLSTATE: five characters, the class in the first two.
    if (/^[0-9A-Z]{5}$/.test(code) && UNAVAILABLE_CLASSES.has(code.slice(0, 2))) return true;
    // Node's system errors: ECONNRESET, ECONNREFUSED, EPIPE, ETIMEDOUT, ENOSPC, EIO, EMFILE…
    if (/^E[A-Z]+$/.test(code)) return true;
  }
  const message = (error as { message?: unknown }).message;
  return typeof message === 'string' && UNAVAILABLE_MESSAGES.some((pattern) => pattern.test(message));
}
