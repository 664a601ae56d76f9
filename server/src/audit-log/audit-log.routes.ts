// The audit log's routes (docs/api.md, "Audit log"): read, filter, export. None changes an entry.
import type { Readable } from 'node:stream';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { AppDeps } from '../deps.ts';
import { Envelope, errors, ok, pageRequest } from '../http/schemas.ts';
import { auditCsvStream, CSV_HEADER, EXPORT_BATCH, exportFileName } from './audit-log.export.ts';
import { auditCatalogue, listAuditLog } from './audit-log.read.ts';
import { AuditCatalogue, AuditExportQuery, AuditListQuery, AuditPage } from './audit-log.schema.ts';

const FILTERS =
  'Filters, all optional and combined with AND: `actor_id` (an agent: its sessions and its API key; with `actor_type=automation`, a rule), ' +
  '`actor_type`, `action` (one of `GET /audit-log/actions`), `resource_type`, `from` (included) and `to` (excluded), RFC 3339 instants with their offset. ' +
  'An unknown action or actor type, a malformed date, `from` after `to`, or an unknown parameter → 400 naming it.';

export function auditRoutes(deps: AppDeps): FastifyPluginAsyncTypebox {
  return async (app) => {
    const tags = ['Audit log'];
    const read = { permission: 'audit:read' } as const;

    app.get(
      '/audit-log',
      {
        config: read,
        schema: {
          tags,
          summary: 'List audit log entries, newest first',
          description: `Who changed what, when and from where; every secret masked. Paged (\`page\`, \`page_size\` 1..100), ordered by \`created_at\` then \`id\`, both descending. ${FILTERS}`,
          querystring: AuditListQuery,
          response: { 200: Envelope(AuditPage), ...errors(400, 401, 403) },
        },
      },
      async (request) => {
        const { page: _page, page_size: _size, ...filters } = request.query;
        return ok(await listAuditLog(deps, filters, pageRequest(request.query)));
      },
    );

    app.get(
      '/audit-log/actions',
      {
        config: read,
        schema: {
          tags,
          summary: 'The actions and resource types of the audit log',
          description:
            '`actions`: every action an entry can have (the values of the `action` filter); `resource_types`: the resource types the log holds entries about now.',
          response: { 200: Envelope(AuditCatalogue), ...errors(401, 403) },
        },
      },
      async () => ok(await auditCatalogue(deps)),
    );

    app.get(
      '/audit-log/export',
      {
        config: read,
        // Fastify's automatic HEAD route would run the whole export to throw it away.
        exposeHeadRoute: false,
        schema: {
          tags,
          summary: 'Export audit log entries as CSV',
          description:
            `The entries the list would give for the same filters, all of them, newest first, streamed as \`text/csv\` (UTF-8, RFC 4180: every cell quoted, lines end with CRLF) in an attachment. ` +
            `Columns: ${CSV_HEADER.map((c) => `\`${c}\``).join(', ')}; \`changes\` is the JSON of the entry's changes. ` +
            `A cell that a spreadsheet would take for a formula (starting with \`=\`, \`+\`, \`-\`, \`@\`, a tab or a carriage return) starts with \`'\`. ` +
            `Read in batches of ${EXPORT_BATCH} entries: memory stays flat whatever the size. \`format\` is required; only \`csv\` exists. ${FILTERS}`,
          querystring: AuditExportQuery,
          response: {
            200: {
              description: 'The CSV file',
              content: { 'text/csv': { schema: Type.Unsafe<Readable>({ type: 'string', format: 'binary' }) } },
            },
            ...errors(400, 401, 403),
          },
        },
      },
      async (request, reply) => {
        const { format: _csv, ...filters } = request.query;
        // Built (and its filters checked) before the first byte: a bad filter is still a 400.
        const stream = auditCsvStream(deps, filters);
        return reply
          .header('content-type', 'text/csv; charset=utf-8')
          .header('content-disposition', `attachment; filename="${exportFileName(deps.clock.now())}"`)
          .header('cache-control', 'no-store')
          .header('x-content-type-options', 'nosniff')
          .send(stream);
      },
    );
  };
}
