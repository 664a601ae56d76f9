// The chat frame's other features in a real browser: business hours (away text, the office
// hours, the away message), uploads within the inbox's limits (refused ones never sent), and
// the CSAT rating asked by a survey message after the conversation is resolved.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Frame, Page } from 'playwright-core';
import { createBusinessHours, createInbox } from '../../server/test/factories.ts';
import { dataOf } from '../../server/test/helpers.ts';
import { browserMissing, chatFrame, LAUNCHER, sitePage, startWorld, type World, watch } from './harness.ts';

const skip = browserMissing();

describe('the chat frame: hours, uploads, CSAT', { skip: skip ?? false, timeout: 120_000 }, () => {
  let world: World;
  let page: Page;
  let frame: Frame;
  let problems: string[];

  before(async () => {
    world = await startWorld();
    // Closed every day: the away text and the away message show whenever the test runs.
    const closed = await createBusinessHours(world.t, { name: 'Never open', hours: {} });
    const inbox = await createInbox(world.t, {
      channel: 'livechat',
      csat_enabled: true,
      config: {
        business_hours_id: closed.id,
        show_office_hours_in_chat: true,
        away_message: 'We are out; back soon.',
        file_upload: { enabled: true, max_size_mb: 1, allowed_extensions: ['txt', 'png'] },
      },
    });
    world.pages.set('/', sitePage(world, inbox.uuid));
    page = await world.browser.newPage();
    problems = watch(page);
    await page.goto(`${world.site}/`);
    await page.locator(LAUNCHER).click();
    frame = await chatFrame(page);
  });
  after(async () => {
    await world?.close();
  });

  it('says the team is away, shows the office hours, and the away message answers the first message', async () => {
    await frame.getByText('We are away right now.').waitFor();
    await frame.getByText('Office hours (Europe/Berlin)').click();
    assert.equal(await frame.locator('.hours dd').first().textContent(), 'closed');
    await frame.getByRole('button', { name: 'Start a conversation' }).click();
    await frame.getByLabel('Message').fill('Hello, anyone?');
    await frame.getByLabel('Message').press('Enter');
    await frame.locator('.msg.away').getByText('We are out; back soon.').waitFor();
  });

  it('sends a file within the limits, and refuses one too large or of another type before sending it', async () => {
    const input = frame.locator('input[type="file"]');
    assert.equal(await input.getAttribute('accept'), '.txt,.png');
    await input.setInputFiles({ name: 'order.txt', mimeType: 'text/plain', buffer: Buffer.from('Order A-1234\n') });
    await frame.getByRole('link', { name: /Attachment: order\.txt/ }).waitFor();

    await input.setInputFiles({ name: 'big.txt', mimeType: 'text/plain', buffer: Buffer.alloc(1024 * 1024 + 1, 'a') });
    await frame.getByRole('alert').getByText('big.txt is larger than 1 MB.').waitFor();
    await input.setInputFiles({ name: 'tool.exe', mimeType: 'application/octet-stream', buffer: Buffer.from('MZ') });
    await frame.getByRole('alert').getByText('tool.exe: files of this type cannot be sent.').waitFor();
    assert.equal(await frame.getByRole('link', { name: /Attachment:/ }).count(), 1, 'only the allowed file was sent');
  });

  it('asks for a rating once the conversation is resolved, and saves it', async () => {
    const [conversation] = dataOf<{ results: Array<{ uuid: string }> }>(
      await world.t.call({ method: 'GET', url: '/api/v1/conversations/all' }),
    ).results;
    const conversationUuid = (conversation as { uuid: string }).uuid;
    // A long conversation: the survey lands below what the list shows.
    for (let i = 1; i <= 8; i++) {
      const message = `Answer number ${i}`;
      dataOf(await world.t.call({ method: 'POST', url: `/api/v1/conversations/${conversationUuid}/messages`, payload: { message } }));
      await frame.locator('[role="log"]').getByText(message).waitFor();
    }
    dataOf(await world.t.call({ method: 'PUT', url: `/api/v1/conversations/${conversationUuid}/status`, payload: { status: 'Resolved' } }));
    await frame.getByRole('group', { name: 'How did we do?' }).waitFor();
    // Scrolled into view when it appears, with its send button (before anything clicks it into view).
    await frame.waitForFunction(
      () => {
        const form = document.querySelector('.rating');
        const list = document.querySelector('.messages');
        if (!form || !list) return false;
        const inner = form.getBoundingClientRect();
        const outer = list.getBoundingClientRect();
        return inner.bottom <= outer.bottom + 1 && inner.top >= outer.top - 1;
      },
      undefined,
      { timeout: 3000 },
    );
    await frame.getByRole('button', { name: '4 out of 5' }).click();
    await frame.getByLabel('Anything to add? (optional)').fill('Quick answer, thanks');
    await frame.getByRole('button', { name: 'Send rating' }).click();
    await frame.getByText('Thank you for your rating!').waitFor();
    const record = dataOf<{ csat: { rating: number; feedback: string } | null }>(
      await world.t.call({ method: 'GET', url: `/api/v1/conversations/${conversationUuid}` }),
    );
    assert.deepEqual(record.csat && { rating: record.csat.rating, feedback: record.csat.feedback }, {
      rating: 4,
      feedback: 'Quick answer, thanks',
    });
    assert.deepEqual(problems, []);
  });

  it("says the away text's time is the visitor's own, in the visitor's time zone", async () => {
    // Open one day only, not today (in Berlin): closed now, next open that day at 09:00 Berlin time.
    const days = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'] as const;
    const berlinToday = new Intl.DateTimeFormat('en-US', { timeZone: 'Europe/Berlin', weekday: 'long' }).format(new Date()).toLowerCase();
    const day = days[(days.indexOf(berlinToday as (typeof days)[number]) + 2) % 7] as string;
    const hours = await createBusinessHours(world.t, { name: 'One day', hours: { [day]: [{ open: '09:00', close: '17:00' }] } });
    const inbox = await createInbox(world.t, { channel: 'livechat', config: { business_hours_id: hours.id } });
    world.pages.set('/tokyo', sitePage(world, inbox.uuid));
    const settings = dataOf<{ next_open_at: string }>(
      await world.t.call({ method: 'GET', url: `/api/v1/widget/chat/settings?inbox_id=${inbox.uuid}`, as: null }),
    );
    const context = await world.browser.newContext({ timezoneId: 'Asia/Tokyo', locale: 'en-US' });
    try {
      const tokyo = await context.newPage();
      await tokyo.goto(`${world.site}/tokyo`);
      await tokyo.locator(LAUNCHER).click();
      const chat = await chatFrame(tokyo);
      const when = new Intl.DateTimeFormat('en-US', { timeZone: 'Asia/Tokyo', weekday: 'long', hour: '2-digit', minute: '2-digit' }).format(
        new Date(settings.next_open_at),
      );
      assert.match(when, /05:00 PM/, '09:00 in Berlin is 17:00 in Tokyo');
      await chat.getByText(`We are away right now. We are back ${when} (your time).`).waitFor();
    } finally {
      await context.close();
    }
  });
});
