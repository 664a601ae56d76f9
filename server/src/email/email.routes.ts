// The admin's view of an email inbox's reader (docs/email.md): its state and the mails it
// passed over. Registered next to the inbox routes; inboxes:manage, like the inbox itself.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { AppDeps } from '../deps.ts';
import { principalOf } from '../http/access.ts';
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
import { ImapConfig, SmtpConfig } from '../inboxes/inboxes.email-config.ts';
import { documentedAs } from '../http/openapi.ts';
import { EMAIL_READER_STATES } from './email.reader-state.ts';
import { listSkippedMails, readerStatus } from './email.status.ts';
import { TEST_TIMEOUT_SECONDS, testEmailConnection } from './email.test-connection.ts';

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

// The route checks only the body's shape: the settings are checked by the service, like a saved
// config, once the stored ones fill what the draft leaves out (a route default would turn an
// absent password into "", which cannot keep the stored one).
const DraftServer = Type.Optional(Type.Record(Type.String(), Type.Unknown(), { description: 'Checked by the service' }));
const ConnectionTestBody = Type.Object({ imap: DraftServer, smtp: DraftServer }, { additionalProperties: false });
const DocumentedConnectionTestBody = Type.Object(
  {
    imap: Type.Optional(ImapConfig),
    smtp: Type.Optional(SmtpConfig),
  },
  {
    additionalProperties: false,
    title: 'EmailConnectionTestBody',
    description:
      'Settings to test in place of the stored ones (unsaved edits). A part left out is tested as stored; an empty body tests both stored servers. A password left out or masked uses the stored one, only while host, port, tls and tls_skip_verify are unchanged.',
  },
);

const ConnectionCheck = Type.Object(
  {
    ok: Type.Boolean(),
    message: Type.String({
      description:
        'What happened, e.g. "Authentication failed: …", "Connection refused: …", "TLS error: …", "Timed out: …", "Mailbox "X" could not be opened: …" (never a password)',
    }),
    duration_ms: Type.Integer({ minimum: 0 }),
  },
  { title: 'EmailConnectionCheck' },
);
const ConnectionTestResult = Type.Object(
  { imap: Type.Optional(ConnectionCheck), smtp: Type.Optional(ConnectionCheck) },
  { title: 'EmailConnectionTest', description: 'One answer per server tested' },
);

/** Tests make outbound connections on an agent's say-so: a few a minute per agent. */
export const CONNECTION_TESTS_PER_MINUTE = 10;

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
    app.post(
      '/inboxes/:id/email/test',
      {
        config: {
          ...manage,
          swaggerTransform: documentedAs({ body: DocumentedConnectionTestBody }),
          rateLimit: {
            max: CONNECTION_TESTS_PER_MINUTE,
            timeWindow: 60_000,
            // After the access hook (the key is the agent) and validation (a refused body costs nothing).
            hook: 'preHandler' as const,
            keyGenerator: (request: FastifyRequest) => `email-test:${principalOf(request).userId}`,
          },
        },
        schema: {
          tags,
          summary: "Test an email inbox's IMAP and SMTP settings, saved or not",
          description: `IMAP: connect, log in, open the mailbox read-only, log out. SMTP: connect, TLS, AUTH, quit; no mail is sent. Each server gets at most ${TEST_TIMEOUT_SECONDS} s (less when EMAIL_TIMEOUT_SECONDS is lower). A failed test is a 200 with \`ok: false\`; settings that are invalid, or a password that must be sent again, are a 400. Not an email inbox → 422. ${CONNECTION_TESTS_PER_MINUTE} tests a minute per agent.`,
          params: IdParams,
          body: ConnectionTestBody,
          response: { 200: Envelope(ConnectionTestResult), ...errors(400, 401, 403, 404, 422, 429) },
        },
      },
      async (request) => ok(await testEmailConnection(deps, request.log, request.params.id, request.body)),
    );
  };
}
