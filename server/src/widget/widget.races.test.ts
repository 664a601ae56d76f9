// A widget send racing a visitor merge: the ownership checked before the transaction no longer
// holds once the conversation is locked, so the send is refused and nothing is appended.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { DB } from '../db/database.ts';
import type { AppDeps } from '../deps.ts';
import { PermissionError } from '../errors.ts';
import { buildTestApp, fakeClock, type TestApp } from '../../test/helpers.ts';
import { createWidgetInbox, startVisitor, verifiedSession, type WidgetInboxFixture } from '../../test/widget.ts';
import { authenticateWidget, mergeVisitor } from './widget.identity.ts';
import { findWidgetInbox, type WidgetInbox } from './widget.inbox.ts';
import { sendMessage } from './widget.service.ts';

/** `deps` whose next transaction first runs `before` (committed on its own), as a concurrent request would. */
function racing(deps: AppDeps, before: () => Promise<void>): AppDeps {
  let pending = true;
  const db = new Proxy(deps.db, {
    get(target, prop) {
      if (prop === 'transaction') {
        return () => ({
          execute: async <T>(fn: (trx: DB) => Promise<T>) => {
            if (pending) {
              pending = false;
              await before();
            }
            return target.transaction().execute(fn);
          },
        });
      }
      const value = Reflect.get(target, prop);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  return { ...deps, db };
}

describe('widget: a send racing a visitor merge', () => {
  const clock = fakeClock(new Date());
  let t: TestApp;
  let chat: WidgetInboxFixture;
  let inbox: WidgetInbox;
  before(async () => {
    t = await buildTestApp({ clock });
    chat = await createWidgetInbox(t);
    inbox = (await findWidgetInbox(t.deps, chat.uuid)) as WidgetInbox;
  });
  after(() => t.close());

  it('the visitor merged between the ownership check and the lock gets a 403 and appends nothing', async () => {
    const visitor = await startVisitor(t, chat.uuid, 'Before signing in');
    const session = await verifiedSession(t, chat, {}, clock.now());
    const visitorCaller = await authenticateWidget(t.deps, inbox, visitor.token);
    const contactCaller = await authenticateWidget(t.deps, inbox, session.session_token);
    const deps = racing(t.deps, async () => {
      assert.equal(await mergeVisitor(t.deps, inbox, contactCaller, visitor.token), true);
    });
    await assert.rejects(sendMessage(deps, inbox, visitorCaller, visitor.conversationUuid, 'sent while merging'), PermissionError);
    const fromVisitor = await t.deps.db.selectFrom('messages').select('id').where('sender_id', '=', visitor.userId).execute();
    assert.deepEqual(fromVisitor, [], 'no message from the deleted visitor');
    const late = await t.deps.db.selectFrom('messages').select('id').where('text_content', '=', 'sent while merging').execute();
    assert.deepEqual(late, []);
  });
});
