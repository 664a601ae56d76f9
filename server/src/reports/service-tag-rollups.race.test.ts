// A CSAT answer racing a tag change on the same conversation (PostgreSQL: two sessions). Each
// side's trigger reads what the other has committed; had both read before either committed, the
// answer would be under neither the tag's rollups nor its removal. The answer therefore locks the
// conversation first, as a tag change does, and the later of the two sees the earlier.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import { createConversation, createInbox } from '../../test/factories.ts';
import { buildTestApp, dataOf, fakeClock, type TestApp } from '../../test/helpers.ts';
import { countsOf, countTagged, type Report, serviceCalls } from '../../test/service-report.ts';
import { foldReportRollups } from './reports.service.ts';

const onPostgres = process.env['DATABASE_URL'] ? false : 'needs DATABASE_URL (two sessions at once)';

describe('the tag rollups and a CSAT answer at the same time', { skip: onPostgres }, () => {
  const clock = fakeClock(new Date('2026-11-02T09:00:00Z'));
  let t: TestApp;
  const calls = serviceCalls(() => t);

  before(async () => {
    t = await buildTestApp({ clock });
  });
  after(() => t?.close());

  /** True once some session waits for a row lock (the answer, behind the tag change). */
  const someoneWaits = async (): Promise<boolean> => {
    const { rows } = await sql<{ n: number }>`
      select count(*)::int as n from pg_stat_activity
       where datname = current_database() and wait_event_type = 'Lock'`.execute(t.deps.db);
    return (rows[0]?.n ?? 0) > 0;
  };

  it('counts an answer given while the conversation is being tagged under the tag', async () => {
    const inbox = await createInbox(t, { csat_enabled: true });
    const tag = dataOf<{ id: number }>(await t.call({ method: 'POST', url: '/api/v1/tags', payload: { name: 'Refunds' } }));
    const c = await createConversation(t, { inbox_id: inbox.id });
    await calls.status(c.uuid, 'Resolved');
    const id = dataOf<{ id: number }>(await t.call({ url: `/api/v1/conversations/${c.uuid}` })).id;

    // A tag change as the service makes it (the conversation locked, then the tag row), held open.
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    let tagged = () => {};
    const taggedYet = new Promise<void>((resolve) => {
      tagged = resolve;
    });
    const tagging = t.deps.db.transaction().execute(async (trx) => {
      await sql`select 1 from conversations where id = ${id} for no key update`.execute(trx);
      await sql`insert into conversation_tags (conversation_id, tag_id) values (${id}, ${tag.id})`.execute(trx);
      tagged();
      await held;
    });
    await taggedYet;

    // The answer arrives meanwhile: it waits for the tag change, or (the race) goes through at once.
    let answered = false;
    const answering = calls.answer(c.uuid, 4).finally(() => {
      answered = true;
    });
    const deadline = Date.now() + 10_000;
    while (!answered && !(await someoneWaits()) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    release();
    await tagging;
    await answering;

    await foldReportRollups(t.deps);
    const report = dataOf<Report>(await t.call({ url: '/api/v1/reports/service?from=2026-11-01&to=2026-11-30&tag=Refunds' }));
    const direct = await countTagged(t, 'Refunds', new Date('2026-10-31T00:00:00Z'), new Date('2026-12-01T00:00:00Z'));
    assert.equal(direct.answers, 1, 'the answer is there, on a tagged conversation');
    assert.deepEqual(countsOf(report), direct, 'the rollups by tag count it too');
  });
});
