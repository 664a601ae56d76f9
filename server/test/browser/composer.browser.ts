// The conversation screen's composer and live behaviour in a real browser: drafts stay with
// their conversation (saved on the server), the typing signal is steady, a resend after a lost
// answer posts once, an open conversation is marked read as messages arrive, shortcuts act on the right conversation,
// a message that arrives while the thread is being read is not lost, the AI rewrite menu
// replaces the draft with the provider's answer (an OpenAI-compatible server on loopback).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { browserMissing, newPage, pageErrors, type WebServer } from '../browser.ts';
import { AGENT_PASSWORD, type AgentDesk, agentDesk } from './agent-harness.ts';
import { createConversation, type Conversation } from '../factories.ts';
import { type Caller, dataOf } from '../helpers.ts';
import { type FakeOpenAi, startFakeOpenAi } from '../openai-server.ts';

describe('the composer and the open conversation', { skip: browserMissing() ?? false, timeout: 240_000 }, () => {
  let desk: AgentDesk | undefined;
  let server: WebServer;
  let browser: Browser;
  let ann: Caller;
  let inboxId: number;

  const signedIn = (page: Page) => desk?.signedIn(page);
  const conversation = (subject: string): Promise<Conversation> =>
    createConversation(server.t, { inbox_id: inboxId, assignee_id: ann.id, subject, content: `<p>About ${subject}</p>` });

  before(async () => {
    desk = await agentDesk();
    ({ server, browser, ann, inboxId } = desk);
  });
  after(() => desk?.close());

  it('keeps each draft with its own conversation', async () => {
    const a = await conversation('Draft A');
    const b = await conversation('Draft B');
    const { page, context } = await newPage(browser, server.base);
    try {
      await signedIn(page);
      const list = page.getByRole('list', { name: 'Conversation list' });
      const editor = page.getByRole('textbox', { name: 'Message editor' });
      const thread = page.getByRole('log', { name: 'Messages' });
      // B first, so its detail is cached when the agent comes back to it (the case that leaked).
      await list.getByText('Draft B', { exact: true }).click();
      await thread.getByText('About Draft B').waitFor();
      await list.getByText('Draft A', { exact: true }).click();
      await thread.getByText('About Draft A').waitFor();
      await editor.click();
      await page.keyboard.type('Half a reply for A');
      await page.locator('input[type=file]').setInputFiles({ name: 'for-a.txt', mimeType: 'text/plain', buffer: Buffer.from('A\n') });
      // Uploaded (the chip with its remove button; "Uploading for-a.txt…" shows the name before).
      await page.getByRole('button', { name: 'Remove for-a.txt' }).waitFor();

      await list.getByText('Draft B', { exact: true }).click();
      await page.waitForURL(new RegExp(`/c/${b.uuid}$`));
      await thread.getByText('About Draft B').waitFor();
      await editor.waitFor();
      assert.equal((await editor.innerText()).trim(), '', "B's editor is empty");
      assert.equal(await page.getByText('for-a.txt').count(), 0, "A's attachment is not in B's composer");
      assert.ok(await page.getByRole('button', { name: 'Send', exact: true }).isDisabled(), 'nothing to send in B');

      await list.getByText('Draft A', { exact: true }).click();
      await page.waitForURL(new RegExp(`/c/${a.uuid}$`));
      await editor.getByText('Half a reply for A').waitFor();
      await page.getByRole('button', { name: 'Remove for-a.txt' }).waitFor();
      // Leaving A saved its draft on the server, with the attachment; B has none.
      const draftOf = async (uuid: string) =>
        dataOf<{ content: string; attachments: string[] } | null>(
          await server.t.call({ method: 'GET', url: `/api/v1/conversations/${uuid}/draft`, as: ann }),
        );
      const savedA = await draftOf(a.uuid);
      assert.match(savedA?.content ?? '', /Half a reply for A/);
      assert.equal(savedA?.attachments.length, 1, 'the attachment is part of the draft');
      assert.equal(await draftOf(b.uuid), null, 'nothing saved for B');
      // A reload keeps it too.
      await page.reload();
      await editor.getByText('Half a reply for A').waitFor();

      await page.getByRole('button', { name: 'Send', exact: true }).click();
      await thread.getByText('Half a reply for A').waitFor();
      await editor.getByText('Half a reply for A').waitFor({ state: 'detached' });
      const sentToB = dataOf<{ results: Array<{ content: string }> }>(
        await server.t.call({ method: 'GET', url: `/api/v1/conversations/${b.uuid}/messages`, as: ann }),
      ).results.filter((m) => m.content.includes('Half a reply'));
      assert.equal(sentToB.length, 0, 'nothing reached B');
      // Sent: the draft is gone, on the server and after a reload.
      assert.equal(await draftOf(a.uuid), null, 'sending deleted the draft');
      await page.reload();
      await thread.getByText('Half a reply for A').waitFor();
      assert.equal((await editor.innerText()).trim(), '');
      assert.deepEqual(pageErrors(page), []);
    } finally {
      await context.close();
    }
  });

  it('forgets what it read as one agent when the session ends', async () => {
    await conversation('Only for Ann');
    const bob = await server.t.makeAgent({ roles: ['Agent'], first_name: 'Bob', email: 'bob@example.com', password: AGENT_PASSWORD });
    await createConversation(server.t, { inbox_id: inboxId, assignee_id: bob.id, subject: 'Only for Bob' });
    const { page, context } = await newPage(browser, server.base);
    try {
      await signedIn(page);
      const list = page.getByRole('list', { name: 'Conversation list' });
      await list.getByText('Only for Ann', { exact: true }).waitFor();
      // The session ends behind the app's back (expired, revoked): the next read answers 401.
      const csrf = (await context.cookies()).find((c) => c.name === 'csrf_token')?.value ?? '';
      assert.equal((await page.request.post('/api/v1/auth/logout', { headers: { 'X-CSRF-Token': csrf } })).status(), 200);
      // The server closes the tab's socket as the session ends (1008), and the tab goes to sign-in by itself.
      await page.waitForURL(/\/login\?next=/);
      await page.getByLabel('Email').fill(bob.email);
      await page.getByLabel('Password').fill(AGENT_PASSWORD);
      await page.getByRole('button', { name: 'Sign in' }).click();
      // Back where Ann was (no reload: the same tab, the same cache).
      await page.waitForURL(/\/inbox\/mine/);
      await list.getByText('Only for Bob', { exact: true }).waitFor();
      assert.equal(await list.getByText('Only for Ann', { exact: true }).count(), 0, "Ann's list is not shown to Bob");
    } finally {
      await context.close();
    }
  });

  it('sends a steady typing signal: once, repeated while typing, stopped when the keys stop', async () => {
    const c = await conversation('Typing along');
    const { page, context } = await newPage(browser, server.base);
    const frames: Array<{ is_typing: boolean; conversation_uuid: string }> = [];
    page.on('websocket', (ws) =>
      ws.on('framesent', ({ payload }) => {
        const frame = JSON.parse(String(payload)) as { type?: string; data?: { is_typing: boolean; conversation_uuid: string } };
        if (frame.type === 'typing' && frame.data) frames.push(frame.data);
      }),
    );
    try {
      await signedIn(page);
      await page.goto(`/inbox/mine/c/${c.uuid}`);
      const editor = page.getByRole('textbox', { name: 'Message editor' });
      await editor.click();
      await page.keyboard.type('quick words', { delay: 40 });
      assert.deepEqual(
        frames.map((f) => f.is_typing),
        [true],
        'one true for a burst of keys, no false between them',
      );
      // Typing on for about 5 s: the true is repeated (every 2 s), still no false.
      await page.keyboard.type(' and then some more slowly', { delay: 200 });
      const during = frames.map((f) => f.is_typing);
      assert.ok(during.every(Boolean) && during.length >= 3 && during.length <= 4, `repeated while typing: ${during}`);
      // 3 s without a key: stopped, once.
      await page.waitForTimeout(3500);
      assert.deepEqual(
        frames.slice(during.length).map((f) => f.is_typing),
        [false],
      );
      assert.ok(frames.every((f) => f.conversation_uuid === c.uuid));
    } finally {
      await context.close();
    }
  });

  it('posts once when Send is pressed again after a lost answer', async () => {
    const c = await conversation('Lost answer');
    const { page, context } = await newPage(browser, server.base);
    try {
      await signedIn(page);
      await page.goto(`/inbox/mine/c/${c.uuid}`);
      // The first send reaches the server, but its answer never comes back.
      let lost = false;
      await page.route(`**/api/v1/conversations/${c.uuid}/messages`, async (route) => {
        if (route.request().method() !== 'POST' || lost) return route.continue();
        await route.fetch();
        lost = true;
        await route.abort('failed');
      });
      const editor = page.getByRole('textbox', { name: 'Message editor' });
      await editor.click();
      await page.keyboard.type('Said only once');
      const send = page.getByRole('button', { name: 'Send', exact: true });
      await send.click();
      for (let i = 0; i < 50 && !lost; i++) await page.waitForTimeout(100);
      assert.ok(lost, 'the first send went out');
      await send.waitFor();
      await editor.getByText('Said only once').waitFor();
      await send.click();
      await editor.getByText('Said only once').waitFor({ state: 'detached' });
      const sent = dataOf<{ results: Array<{ content: string }> }>(
        await server.t.call({ method: 'GET', url: `/api/v1/conversations/${c.uuid}/messages`, as: ann }),
      ).results.filter((m) => m.content.includes('Said only once'));
      assert.equal(sent.length, 1, 'the second Send replayed the first instead of posting again');
    } finally {
      await context.close();
    }
  });

  it('shows a message that arrives over the socket while the thread is being read', async () => {
    const c = await conversation('Read in flight');
    const { page, context } = await newPage(browser, server.base);
    const received: string[] = [];
    page.on('websocket', (socket) => socket.on('framereceived', ({ payload }) => received.push(String(payload))));
    try {
      await signedIn(page);
      // The server answers the thread's read at once (before the message exists); the answer reaches the page when released.
      let release = () => {};
      const held = new Promise<void>((resolve) => {
        release = resolve;
      });
      let read = false;
      await page.route(`**/api/v1/conversations/${c.uuid}/messages?*`, async (route) => {
        if (route.request().method() !== 'GET') return route.continue();
        const response = await route.fetch();
        read = true;
        await held;
        await route.fulfill({ response }).catch(() => undefined);
      });
      try {
        await page.getByRole('list', { name: 'Conversation list' }).getByText('Read in flight', { exact: true }).click();
        for (let i = 0; i < 100 && !read; i++) await page.waitForTimeout(50);
        assert.ok(read, 'the thread was read');
        dataOf(
          await server.t.call({
            method: 'POST',
            url: `/api/v1/conversations/${c.uuid}/messages`,
            payload: { message: '<p>Written while the thread was read</p>', private: true },
            as: ann,
          }),
        );
        for (let i = 0; i < 200 && !received.some((f) => f.includes('Written while the thread was read')); i++)
          await page.waitForTimeout(50);
        assert.ok(
          received.some((f) => f.includes('Written while the thread was read')),
          'the message came over the socket while the read was held',
        );
        release();
        const thread = page.getByRole('log', { name: 'Messages' });
        await thread.getByText('Written while the thread was read').waitFor({ timeout: 10_000 });
        await thread.getByText('About Read in flight').waitFor();
        assert.equal(await thread.getByText('Written while the thread was read').count(), 1, 'shown once');
      } finally {
        release();
        await page.unroute(`**/api/v1/conversations/${c.uuid}/messages?*`);
      }
      assert.deepEqual(pageErrors(page), []);
    } finally {
      await context.close();
    }
  });

  it('offers no AI rewrite while no AI provider is configured', async () => {
    const { page, context } = await newPage(browser, server.base);
    try {
      const c = await conversation('no provider');
      await signedIn(page);
      const prompts = page.waitForResponse((response) => response.url().endsWith('/api/v1/ai/prompts'));
      const status = page.waitForResponse((response) => response.url().endsWith('/api/v1/ai/status'));
      await page.goto(`/inbox/mine/c/${c.uuid}`);
      await page.getByRole('textbox', { name: 'Message editor' }).waitFor();
      await Promise.all([prompts, status]);
      await page.evaluate('new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)))');
      assert.equal(await page.getByRole('button', { name: 'Rewrite with AI' }).count(), 0);
      assert.deepEqual(pageErrors(page), []);
    } finally {
      await context.close();
    }
  });

  it('rewrites the draft with a prompt of the AI menu, and keeps it when the provider fails', async () => {
    const fake: FakeOpenAi = await startFakeOpenAi({ apiKey: 'sk-test', models: ['gpt-test'] });
    const { page, context } = await newPage(browser, server.base);
    try {
      dataOf(
        await server.t.call({
          method: 'PUT',
          url: '/api/v1/ai/provider',
          payload: { provider: 'openai', api_key: 'sk-test', base_url: fake.baseUrl, model: 'gpt-test' },
        }),
      );
      const prompts = dataOf<Array<{ key: string; title: string }>>(await server.t.call({ url: '/api/v1/ai/prompts' }));
      const friendly = prompts.find((p) => p.key === 'make_friendly');
      assert.ok(friendly, 'the default prompts are there');
      const c = await conversation('a rewrite');
      await signedIn(page);
      await page.goto(`/inbox/mine/c/${c.uuid}`);
      const editor = page.getByRole('textbox', { name: 'Message editor' });
      // With no draft the prompts are there but cannot be chosen, and the menu says why.
      await page.getByRole('button', { name: 'Rewrite with AI' }).click();
      await page.getByText('Write a draft first').waitFor();
      assert.equal(await page.getByRole('menuitem', { name: friendly.title }).getAttribute('aria-disabled'), 'true');
      await page.keyboard.press('Escape');
      await editor.click();
      await page.keyboard.type('we cant refund that sorry');

      fake.behaviour = { kind: 'answer', text: '<p>We are <strong>so sorry</strong>: this order cannot be refunded.</p>' };
      await page.getByRole('button', { name: 'Rewrite with AI' }).click();
      await page.getByRole('menuitem', { name: friendly.title }).click();
      await editor.getByText('so sorry').waitFor();
      assert.equal(await editor.locator('strong').textContent(), 'so sorry', 'the answer is the draft, formatting kept');
      assert.equal(fake.requests.length, 1);
      const sent = fake.messagesOf(fake.requests[0]!);
      assert.deepEqual(sent.at(-1), { role: 'user', content: '<p>we cant refund that sorry</p>' }, 'the draft went to the provider');

      // The provider fails: the agent is told, and the draft stays as it was.
      fake.behaviour = { kind: 'status', status: 500, message: 'The model is overloaded' };
      await page.getByRole('button', { name: 'Rewrite with AI' }).click();
      await page.getByRole('menuitem', { name: friendly.title }).click();
      await page
        .getByRole('status')
        .filter({ hasText: /AI provider|failed|error/i })
        .first()
        .waitFor();
      assert.match((await editor.textContent()) ?? '', /We are so sorry: this order cannot be refunded\./);
      const refused = pageErrors(page);
      assert.ok(
        refused.every((e) => /status of 50\d/.test(e)),
        `only the provider's refusal was logged: ${refused.join('; ')}`,
      );
    } finally {
      await context.close();
      await fake.close();
    }
  });
});
