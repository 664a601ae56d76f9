// An assignment and the deletion of its agent cannot interleave: the assignment share-locks the
// agent's row, so the deletion waits for it to commit and the release job then frees the
// conversation. Without the lock (PostgreSQL, READ COMMITTED) the deletion commits at once and a
// conversation can stay assigned to a deleted agent.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { lockLiveAgent } from '../agents/agents.service.ts';
import { createConversation, createInbox } from '../../test/factories.ts';
import { buildTestApp, dataOf, runDueJobs, type TestApp } from '../../test/helpers.ts';

describe('assignment racing the deletion of its agent', () => {
  let t: TestApp;
  before(async () => {
    t = await buildTestApp();
  });
  after(() => t.close());

  it('the deletion waits for the assignment, and the conversation is released after', async () => {
    const agent = await t.makeAgent();
    const inbox = await createInbox(t);
    const conversation = await createConversation(t, { inbox_id: inbox.id });
    let deletion: Promise<unknown> | null = null;
    let settled = false;
    await t.deps.db.transaction().execute(async (trx) => {
      assert.ok(await lockLiveAgent(trx, agent.id), 'the agent is live');
      await trx.updateTable('conversations').set({ assigned_user_id: agent.id }).where('id', '=', conversation.id).execute();
      deletion = t.call({ method: 'DELETE', url: `/api/v1/agents/${agent.id}` }).then((res) => {
        settled = true;
        return res;
      });
      await new Promise((resolve) => setTimeout(resolve, 300));
      assert.equal(settled, false, 'the deletion waits for the assignment to commit');
    });
    dataOf(await (deletion as unknown as Promise<Parameters<typeof dataOf>[0]>));
    await runDueJobs(t.deps, ['conversations.release_agent']);
    const row = await t.deps.db.selectFrom('conversations').select('assigned_user_id').where('id', '=', conversation.id).executeTakeFirst();
    assert.equal(row?.assigned_user_id, null, 'released once the agent is gone');
  });
});
