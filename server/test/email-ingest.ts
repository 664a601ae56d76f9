// Setup for the tests of taking mail in (email.ingest.ts): the app and an email inbox made before
// a describe block's tests, the app closed after them, and what the tests read back (a
// conversation and its messages over the API, the inbox's Message-ID and skipped-mail rows).
import assert from 'node:assert/strict';
import { after, before } from 'node:test';
import type { EmailInbox } from '../src/email/email.inbox.ts';
import { type IngestOutcome, ingestMail } from '../src/email/email.ingest.ts';
import type { Conversation } from './factories.ts';
import { buildTestApp, dataOf, type TestApp } from './helpers.ts';

type TestAppOptions = Parameters<typeof buildTestApp>[0];
import { emailInbox, nextSource } from './mail.ts';

/** What ingestSuite sets up; `M` is the shape of a message the tests read. */
export interface IngestSuite<M extends { type: string } = { type: string }> {
  /** The app, built before the suite's tests. */
  readonly t: TestApp;
  /** The email inbox the mails are taken in by. */
  readonly inbox: EmailInbox;
  /** A conversation as GET /conversations/{uuid} answers it. */
  conversation(uuid: string): Promise<Conversation>;
  /** A conversation's messages, its activity left out. */
  messages(uuid: string): Promise<M[]>;
  /** The inbox's rows of mail_ids for a Message-ID. */
  mailIdRows(headerId: string): ReturnType<typeof mailIdRowsOf>;
  /** The inbox's skipped mails, in the order they were skipped. */
  skippedRows(): ReturnType<typeof skippedRowsOf>;
  /** Takes `raw` in at the next position, failing the test unless it is stored. */
  stored(raw: Buffer): Promise<Extract<IngestOutcome, { kind: 'stored' }>>;
  /** The number of rows in `table`. */
  count(table: 'jobs' | 'conversations' | 'messages' | 'users' | 'mail_ids' | 'domain_events'): Promise<number>;
}

function mailIdRowsOf(t: TestApp, inbox: EmailInbox, headerId: string) {
  return t.deps.db.selectFrom('mail_ids').where('inbox_id', '=', inbox.id).where('header_id', '=', headerId).selectAll().execute();
}

function skippedRowsOf(t: TestApp, inbox: EmailInbox) {
  return t.deps.db.selectFrom('email_skipped').where('inbox_id', '=', inbox.id).selectAll().orderBy('id').execute();
}

/** For the ingest tests of a describe block (call it in the block): the app (with `options`) and an email inbox. */
export function ingestSuite<M extends { type: string } = { type: string }>(options: TestAppOptions = {}): IngestSuite<M> {
  let app: TestApp | undefined;
  let made: EmailInbox | undefined;

  before(async () => {
    app = await buildTestApp(options);
    made = await emailInbox(app);
  });
  after(() => app?.close());

  const suite: IngestSuite<M> = {
    get t() {
      if (!app) throw new Error('ingestSuite: the app is built before the tests');
      return app;
    },
    get inbox() {
      if (!made) throw new Error('ingestSuite: the inbox is made before the tests');
      return made;
    },
    conversation: async (uuid) => dataOf<Conversation>(await suite.t.call({ method: 'GET', url: `/api/v1/conversations/${uuid}` })),
    messages: async (uuid) =>
      dataOf<{ results: M[] }>(
        await suite.t.call({ method: 'GET', url: `/api/v1/conversations/${uuid}/messages?page_size=100` }),
      ).results.filter((m) => m.type !== 'activity'),
    mailIdRows: (headerId) => mailIdRowsOf(suite.t, suite.inbox, headerId),
    skippedRows: () => skippedRowsOf(suite.t, suite.inbox),
    async stored(raw) {
      const outcome = await ingestMail(suite.t.deps, suite.inbox, raw, nextSource());
      assert.equal(outcome.kind, 'stored', JSON.stringify(outcome));
      if (outcome.kind !== 'stored') throw new Error('unreachable');
      return outcome;
    },
    async count(table) {
      const row = await suite.t.deps.db
        .selectFrom(table)
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow();
      return Number(row.n);
    },
  };
  return suite;
}
