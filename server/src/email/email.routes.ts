// The admin's view of an email inbox's reader (docs/email.md): its state and the mails it
// passed over. Registered next to the inbox routes; inboxes:manage, like the inbox itself.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { AppDeps } from '../deps.ts';
import {
  DateTime,
  Envelope,
  errors,
  IdParams,
  Nullable,
  NullableDateTime,
  ok,
  Paged,
  PageQuery,
  pageRequest,
  StringEnum,
} from '../http/schemas.ts';
import { EMAIL_READER_STATES } from './email.reader-state.ts';
import { listSkippedMails, readerStatus } from './email.status.ts';

const ReaderStatus = Type.Object(
  {
    state: StringEnum(EMAIL_READER_STATES, {
      description:
        'stopped (no instance reads it: disabled, or between holders) | connecting | reading (taking mails in) | idle (waiting with IMAP IDLE) | polling (checking every poll_interval_seconds) | failing (reconnecting after an error: see last_error)',
    }),
    holder: Nullable(Type.String({ description: 'The instance reading the mailbox (host:pid:…), while its lease lasts' })),
    connected_at: NullableDateTime,
    last_checked_at: NullableDateTime,
    last_error: Nullable(Type.String({ description: 'The last error of the connection or the mailbox (never a password)' })),
    last_error_at: NullableDateTime,
    cursor: Nullable(
      Type.Object(
        {
          mailbox: Type.String(),
          uidvalidity: Type.Integer(),
          last_uid: Type.Integer({ description: 'Every mail up to this UID was taken in or passed over' }),
        },
        { title: 'EmailCursor' },
      ),
    ),
  },
  { title: 'EmailReaderStatus' },
);

const SkippedMail = Type.Object(
  {
    id: Type.Integer(),
    uidvalidity: Nullable(Type.Integer()),
    uid: Nullable(Type.Integer()),
    message_id: Nullable(Type.String()),
    sender: Nullable(Type.String()),
    subject: Nullable(Type.String()),
    size: Nullable(Type.Integer({ description: 'Bytes (RFC822.SIZE)' })),
    reason: Type.String(),
    created_at: DateTime,
  },
  { title: 'SkippedMail' },
);

export function emailRoutes(deps: AppDeps): FastifyPluginAsyncTypebox {
  return async (app) => {
    const tags = ['Inboxes'];
    const manage = { permission: 'inboxes:manage' } as const;
    app.get(
      '/inboxes/:id/email/status',
      {
        config: manage,
        schema: {
          tags,
          summary: "The state of an email inbox's IMAP reader",
          description: 'Not an email inbox → 404.',
          params: IdParams,
          response: { 200: Envelope(ReaderStatus), ...errors(400, 401, 403, 404) },
        },
      },
      async (request) => ok(await readerStatus(deps, request.params.id)),
    );
    app.get(
      '/inboxes/:id/email/skipped',
      {
        config: manage,
        schema: {
          tags,
          summary: 'The mails an email inbox passed over (too large, unreadable), newest first, paged',
          description: 'Kept 30 days. Not an email inbox → 404.',
          params: IdParams,
          querystring: Type.Object(PageQuery),
          response: { 200: Envelope(Paged(SkippedMail)), ...errors(400, 401, 403, 404) },
        },
      },
      async (request) => ok(await listSkippedMails(deps, request.params.id, pageRequest(request.query))),
    );
  };
}
