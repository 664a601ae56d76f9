// Widget sessions: hashed at rest, one inbox each, sliding expiry, ended on demand.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sha256 } from '../security/hashing.ts';
import { createContact, createInbox } from '../../test/factories.ts';
import { buildTestApp, fakeClock, type TestApp } from '../../test/helpers.ts';
import {
  endWidgetSession,
  issueWidgetSession,
  parseSessionDuration,
  purgeExpiredWidgetSessions,
  resolveWidgetSession,
  sessionLifetimeMs,
  VISITOR_SESSION_MS,
} from './widget.sessions.ts';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

describe('widget sessions', () => {
  const clock = fakeClock();
  let t: TestApp;
  let inboxA: number;
  let inboxB: number;
  let contactId: number;
  before(async () => {
    t = await buildTestApp({ clock });
    inboxA = (await createInbox(t)).id;
    inboxB = (await createInbox(t)).id;
    contactId = (await createContact(t)).id;
  });
  after(() => t.close());

  it('reads session_duration; anything unreadable is the visitor lifetime', () => {
    const cases: Array<[string, number]> = [
      ['30d', 30 * DAY],
      ['12h', 12 * HOUR],
      ['90m', 90 * 60_000],
      ['0d', VISITOR_SESSION_MS],
      ['1w', VISITOR_SESSION_MS],
      ['', VISITOR_SESSION_MS],
    ];
    for (const [value, ms] of cases) assert.equal(parseSessionDuration(value), ms, value);
    assert.equal(sessionLifetimeMs(true, '1h'), VISITOR_SESSION_MS);
    assert.equal(sessionLifetimeMs(false, '1h'), HOUR);
  });

  it('stores only the hash; the token is 43 base64url characters and works for its inbox only', async () => {
    const lifetime = () => DAY;
    const token = await issueWidgetSession(
      t.deps.db,
      { userId: contactId, inboxId: inboxA, isVisitor: false, lifetimeMs: DAY },
      clock.now(),
    );
    assert.match(token, /^[A-Za-z0-9_-]{43}$/);
    const rows = await t.deps.db.selectFrom('widget_sessions').selectAll().where('user_id', '=', contactId).execute();
    assert.equal(rows.length, 1);
    assert.equal(rows[0]?.token_hash, sha256(token));
    assert.ok(!JSON.stringify(rows).includes(token));
    const session = await resolveWidgetSession(t.deps.db, token, inboxA, clock.now(), lifetime);
    assert.deepEqual(session && { userId: session.userId, inboxId: session.inboxId, isVisitor: session.isVisitor }, {
      userId: contactId,
      inboxId: inboxA,
      isVisitor: false,
    });
    assert.equal(await resolveWidgetSession(t.deps.db, token, inboxB, clock.now(), lifetime), null);
    assert.equal(
      await resolveWidgetSession(t.deps.db, `${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`, inboxA, clock.now(), lifetime),
      null,
    );
    assert.equal(await resolveWidgetSession(t.deps.db, 'short', inboxA, clock.now(), lifetime), null);
    await endWidgetSession(t.deps.db, token);
    assert.equal(await resolveWidgetSession(t.deps.db, token, inboxA, clock.now(), lifetime), null);
  });

  it('slides the expiry on use, and expires when unused for its lifetime', async () => {
    const lifetime = () => DAY;
    const token = await issueWidgetSession(
      t.deps.db,
      { userId: contactId, inboxId: inboxA, isVisitor: false, lifetimeMs: DAY },
      clock.now(),
    );
    clock.advance(20 * HOUR);
    const slid = await resolveWidgetSession(t.deps.db, token, inboxA, clock.now(), lifetime);
    assert.equal(slid?.expiresAt.getTime(), clock.now().getTime() + DAY);
    clock.advance(20 * HOUR); // 40 h after issue, 20 h after the last use
    assert.ok(await resolveWidgetSession(t.deps.db, token, inboxA, clock.now(), lifetime));
    clock.advance(DAY + 1);
    assert.equal(await resolveWidgetSession(t.deps.db, token, inboxA, clock.now(), lifetime), null);
    await purgeExpiredWidgetSessions(t.deps);
    const left = await t.deps.db.selectFrom('widget_sessions').select('token_hash').where('token_hash', '=', sha256(token)).execute();
    assert.equal(left.length, 0);
  });
});
