// The lists' items are written by PostgreSQL as JSON (records.queries.ts, LIST_ITEM), the
// conversation's detail by the server (conversations.read.ts): they must say the same thing.
// Every list item equals the detail's fields of the list item, byte for byte once serialised,
// through the cases where a hand-written JSON could drift: nulls, a contact without a name or
// an email, tags, unread counts, snoozes and SLA-free fields, text needing escapes, times with
// sub-millisecond digits; and the page is cut at its size, numbered in the list's order, with the
// true total also past the end.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createConversation, createInbox, uniqueEmail } from '../../test/factories.ts';
import { buildTestApp, dataOf, fakeClock, type TestApp } from '../../test/helpers.ts';

type Json = Record<string, unknown>;
type Item = Json & { uuid: string; contact: Json };
type Paged<T> = { results: T[]; total: number; per_page: number; total_pages: number; page: number };

describe('conversation lists written by the database', () => {
  const clock = fakeClock();
  let t: TestApp;
  const list = async (query: string) => dataOf<Paged<Item>>(await t.call({ method: 'GET', url: `/api/v1/conversations/all?${query}` }));

  before(async () => {
    t = await buildTestApp({ clock });
    const inbox = await createInbox(t, { name: 'Chat "quoted" \\ inbox' });
    for (const name of ['vip', 'Billing', 'ünïcode']) dataOf(await t.call({ method: 'POST', url: '/api/v1/tags', payload: { name } }));
    const agent = await t.makeAgent({ first_name: 'Ann' });
    for (let i = 0; i < 7; i++) {
      // A time on the edge of a second: the JSON shows it with its milliseconds.
      clock.set(new Date(Date.UTC(2026, 0, 5, 10, i, 7, 999)));
      const conversation = await createConversation(t, {
        inbox_id: inbox.id,
        ...(i % 2 === 0 ? { contact_email: uniqueEmail('list'), first_name: `Zoë ${i}`, last_name: 'O\'Hara "Q"' } : {}),
        subject: `Line\nbreak\ttab "${i}" \\ \u2028 😀`,
        content: `<p>Message ${i} with <b>bold</b> &amp; entities</p>`,
      });
      if (i % 3 === 0)
        await t.call({
          method: 'POST',
          url: `/api/v1/conversations/${conversation.uuid}/tags`,
          payload: { tags: ['vip', 'ünïcode', 'Billing'] },
        });
      if (i === 1)
        await t.call({
          method: 'PUT',
          url: `/api/v1/conversations/${conversation.uuid}/assignee/user`,
          payload: { assignee_id: agent.id },
        });
      if (i === 2)
        await t.call({ method: 'PUT', url: `/api/v1/conversations/${conversation.uuid}/priority`, payload: { priority: 'High' } });
      if (i === 3) {
        clock.advance(60_000);
        await t.call({
          method: 'POST',
          url: `/api/v1/conversations/${conversation.uuid}/messages`,
          payload: { message: '<p>a reply</p>' },
        });
      }
      if (i === 4)
        await t.call({
          method: 'PUT',
          url: `/api/v1/conversations/${conversation.uuid}/status`,
          payload: { status: 'Snoozed', snoozed_until: '2026-02-01T00:00:00Z' },
        });
      if (i === 5)
        await t.call({ method: 'PUT', url: `/api/v1/conversations/${conversation.uuid}/status`, payload: { status: 'Resolved' } });
    }
  });
  after(() => t.close());

  it('writes each item as the detail says it, field for field, in the schema order', async () => {
    const page = await list('page_size=100');
    assert.equal(page.total, 7);
    assert.equal(page.results.length, 7);
    for (const item of page.results) {
      const detail = dataOf<Json & { contact: Json }>(await t.call({ method: 'GET', url: `/api/v1/conversations/${item.uuid}` }));
      const expected: Json = {};
      for (const key of Object.keys(item)) {
        expected[key] = key === 'contact' ? Object.fromEntries(Object.keys(item.contact).map((k) => [k, detail.contact[k]])) : detail[key];
      }
      assert.equal(JSON.stringify(item), JSON.stringify(expected), `conversation ${item.uuid}`);
    }
    const tagged = page.results.find((item) => (item['tags'] as string[]).length === 3);
    assert.deepEqual([...((tagged?.['tags'] as string[]) ?? [])].sort(), ['Billing', 'vip', 'ünïcode']);
    assert.match(String(page.results[0]?.['created_at']), /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  });

  it('cuts the page at its size, in the list order, and gives the true total past the end', async () => {
    const all = (await list('page_size=100&order_by=created_at&order=asc')).results.map((item) => item.uuid);
    const first = await list('page_size=3&page=1&order_by=created_at&order=asc');
    const second = await list('page_size=3&page=2&order_by=created_at&order=asc');
    const third = await list('page_size=3&page=3&order_by=created_at&order=asc');
    assert.deepEqual(
      [...first.results, ...second.results, ...third.results].map((item) => item.uuid),
      all,
    );
    assert.deepEqual([first.results.length, second.results.length, third.results.length], [3, 3, 1]);
    assert.deepEqual({ ...first, results: [] }, { results: [], total: 7, per_page: 3, total_pages: 3, page: 1 });
    const past = await list('page_size=3&page=9');
    assert.deepEqual(past, { results: [], total: 7, per_page: 3, total_pages: 3, page: 9 });
    const none = dataOf<Paged<Item>>(await t.call({ method: 'GET', url: '/api/v1/conversations/all?tag=Billing&status=Closed' }));
    assert.deepEqual(none, { results: [], total: 0, per_page: 30, total_pages: 0, page: 1 });
  });
});
