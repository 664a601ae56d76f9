// The audit log as CSV (GET /audit-log/export?format=csv, docs/api.md "Audit log"): the list's
// filters, newest first, read in keyset batches of EXPORT_BATCH rows and written as they come,
// so memory stays flat whatever the log's size and no transaction is held between batches.
// Entries written after the export started are newer than its first row and are not in it.
import { Readable } from 'node:stream';
import type { AppDeps } from '../deps.ts';
import type { AuditFilterInput } from './audit-log.schema.ts';
import * as q from './audit-log.queries.ts';
import { auditFilterOf, auditRecord } from './audit-log.read.ts';

export const EXPORT_BATCH = 500;

/** The CSV's columns: an entry's, as stored (`changes` as JSON). */
export const CSV_HEADER = q.ENTRY_COLUMNS;

/**
 * One CSV cell: always quoted, quotes doubled (RFC 4180). A cell a spreadsheet would read as a
 * formula (starting with =, +, -, @, a tab or a carriage return) gets a leading `'` first
 * (OWASP, "CSV Injection"): names, user agents and resource names come from users.
 */
export function csvCell(value: unknown): string {
  let text = value === null || value === undefined ? '' : value instanceof Date ? value.toISOString() : String(value);
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return `"${text.replaceAll('"', '""')}"`;
}

function csvLine(cells: readonly unknown[]): string {
  return `${cells.map(csvCell).join(',')}\r\n`;
}

/** The export's text, a batch of lines at a time. Checks the filters before the first line. */
export function auditCsvChunks(deps: Pick<AppDeps, 'db'>, input: AuditFilterInput, batch = EXPORT_BATCH): AsyncGenerator<string> {
  const filter = auditFilterOf(input);
  return (async function* () {
    yield csvLine(CSV_HEADER);
    let cursor: q.AuditCursor | null = null;
    for (;;) {
      const rows = await q.auditEntriesAfter(deps.db, filter, cursor, batch);
      let text = '';
      for (const row of rows) {
        const entry = auditRecord(row);
        text += csvLine([
          entry.id,
          entry.created_at,
          entry.actor.type,
          entry.actor.id,
          entry.actor.name,
          entry.ip,
          entry.user_agent,
          entry.request_id,
          entry.action,
          entry.resource.type,
          entry.resource.id,
          entry.resource.name,
          JSON.stringify(entry.changes),
        ]);
      }
      if (text) yield text;
      const last = rows.at(-1);
      if (!last || rows.length < batch) return;
      cursor = { at: last.cursor_at, id: String(last.id) };
    }
  })();
}

/** The export as a stream for the reply (a client that goes away stops the reading). */
export function auditCsvStream(deps: Pick<AppDeps, 'db'>, input: AuditFilterInput): Readable {
  return Readable.from(auditCsvChunks(deps, input), { objectMode: false });
}

/** `audit-log-<date>.csv`, the day of the export in UTC. */
export function exportFileName(now: Date): string {
  return `audit-log-${now.toISOString().slice(0, 10)}.csv`;
}
