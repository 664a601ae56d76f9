import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import { recordEvent } from '../events/events.service.ts';
import { buildTestApp, type TestApp } from '../../test/helpers.ts';
import { EVENTS_CHANNEL_PREFIX, NOTIFY_GAP_MS, throttled } from './event-commits.ts';

const onPostgres = Boolean(process.env['DATABASE_URL']);
const at = new Date('2026-11-27T10:00:00Z');
const payload = { agent_id: 1, availability_status: 'away', source: 'idle' } as const;

describe('committed domain events', () => {
  let t: TestApp;
  let told = 0;
  /** What another session could read when the listeners were told (the events were committed). */
  const seenWhenTold: number[] = [];
  before(async () => {
    t = await buildTestApp();
    t.deps.eventCommits.subscribe(() => {
      told += 1;
    });
  });
  after(() => t.close());

  const countEvents = async () =>
    Number(
      (await sql<{ n: number }>`select count(*)::int as n from domain_events where type = 'agent.availability_changed'`.execute(t.deps.db))
        .rows[0]?.n,
    );

  it('tells this process once, after the commit of a transaction that recorded some', async () => {
    const before = told;
    let toldInside = -1;
    await t.deps.db.transaction().execute(async (trx) => {
      await recordEvent(trx, 'agent.availability_changed', payload, at);
      await recordEvent(trx, 'agent.availability_changed', payload, at);
      toldInside = told;
    });
    assert.equal(toldInside, before, 'nobody is told before the commit');
    assert.equal(told, before + 1, 'one commit, one signal');
  });

  it('the events are readable by then', async () => {
    const unsubscribe = t.deps.eventCommits.subscribe(() => {
      void countEvents().then((n) => seenWhenTold.push(n));
    });
    try {
      const committedBefore = await countEvents();
      await t.deps.db.transaction().execute((trx) => recordEvent(trx, 'agent.availability_changed', payload, at));
      await new Promise((resolve) => setTimeout(resolve, 50));
      assert.deepEqual(seenWhenTold, [committedBefore + 1]);
    } finally {
      unsubscribe();
    }
  });

  it('tells no one of a rolled-back transaction, nor of one that recorded none', async () => {
    const before = told;
    await assert.rejects(
      t.deps.db.transaction().execute(async (trx) => {
        await recordEvent(trx, 'agent.availability_changed', payload, at);
        throw new Error('changed my mind');
      }),
      /changed my mind/,
    );
    await t.deps.db.transaction().execute(async (trx) => {
      await sql`select 1`.execute(trx);
    });
    assert.equal(told, before);
  });

  it('a statement outside a transaction tells at once; the next transaction starts with nothing noted', async () => {
    const before = told;
    await recordEvent(t.deps.db, 'agent.availability_changed', payload, at);
    assert.equal(told, before + 1);
    await t.deps.db.transaction().execute(async (trx) => {
      await sql`select 1`.execute(trx);
    });
    assert.equal(told, before + 1);
  });

  it('no trigger sends a NOTIFY from inside the writers’ transactions any more', async () => {
    const { rows } = await sql<{ n: number }>`
      select count(*)::int as n from pg_trigger where tgrelid = 'domain_events'::regclass and tgname = 'domain_events_notify'`.execute(
      t.deps.db,
    );
    assert.equal(rows[0]?.n, 0);
  });

  it(
    'other processes hear a NOTIFY after the commit, coalesced, marked with this process’s origin',
    { skip: !onPostgres && 'one process holds the embedded database' },
    async () => {
      const listener = await t.deps.openDbListener();
      const heard: string[] = [];
      try {
        await listener.listen(`${EVENTS_CHANNEL_PREFIX}${listener.schema}`, (origin) => {
          heard.push(origin);
        });
        const started = performance.now();
        await Promise.all(
          Array.from({ length: 20 }, () =>
            t.deps.db.transaction().execute((trx) => recordEvent(trx, 'agent.availability_changed', payload, at)),
          ),
        );
        const deadline = Date.now() + 5_000;
        while (heard.length === 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
        await new Promise((resolve) => setTimeout(resolve, 100));
        const elapsed = performance.now() - started;
        assert.ok(heard.length >= 1, 'another session heard of the commits');
        // At most one at once, then one per gap: however slow the machine, never one per commit.
        assert.ok(heard.length <= Math.ceil(elapsed / NOTIFY_GAP_MS) + 1, `${heard.length} notifications in ${Math.round(elapsed)} ms`);
        assert.ok(heard.length < 20 || elapsed > 20 * NOTIFY_GAP_MS, 'coalesced');
        assert.deepEqual(new Set(heard), new Set([t.deps.eventCommits.origin]));
      } finally {
        await listener.close();
      }
    },
  );
});

describe('throttled', () => {
  it('sends the first at once, then at most one more per gap, and never drops the last ask', async () => {
    const sent: number[] = [];
    const started = performance.now();
    const ask = throttled(async () => {
      sent.push(performance.now() - started);
    }, 40);
    ask();
    assert.equal(sent.length, 1, 'the first is sent at once');
    for (let i = 0; i < 10; i++) ask();
    await ask.settled();
    assert.equal(sent.length, 2, 'ten asks within the gap make one more send');
    assert.ok((sent[1] ?? 0) - (sent[0] ?? 0) >= 35, 'after the gap');
    ask();
    await ask.settled();
    assert.equal(sent.length, 3);
  });

  it('goes on after a failed send', async () => {
    let calls = 0;
    const ask = throttled(async () => {
      calls += 1;
      if (calls === 1) throw new Error('the connection dropped');
    }, 1);
    ask();
    ask();
    await ask.settled();
    assert.equal(calls, 2);
  });
});
