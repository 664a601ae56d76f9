// The pictures of docs/screenshots/ that need a workspace with a history: the service report over a
// month of activity (conversations written in the past on a shifted server clock: replied to,
// resolved, some late against their team's SLA, some rated) and a live chat's appearance beside
// the widget's preview. Run by `npm run screenshots` (PARLEY_SCREENSHOTS=1) after
// agent.browser.ts, which saves the agent screens; skipped otherwise. Each screen is also audited
// with axe (serious and critical) with its data in place.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { recordSlaAlerts } from '../../src/conversations/conversations.sla.ts';
import { type Caller, dataOf, type TestApp } from '../helpers.ts';
import { createConversation, createInbox, createTeam, type Inbox } from '../factories.ts';
import {
  type AdminSession,
  adminSession,
  browserMissing,
  describeViolations,
  SCREENSHOTS,
  seriousViolations,
  shot,
} from './admin-harness.ts';

const skip = browserMissing() ?? (SCREENSHOTS ? false : 'screenshots only (npm run screenshots)');
const HOUR = 3600_000;
const DAY = 24 * HOUR;

/** Real time moved by an offset: the seed sets it in the past, then puts it back. */
const clock = {
  offset: 0,
  now: () => new Date(Date.now() + clock.offset),
  at(time: number) {
    clock.offset = time - Date.now();
  },
};

/** The same history on every run (mulberry32). */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let x = Math.imul(state ^ (state >>> 15), 1 | state);
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
}

const SUBJECTS = [
  'Order never arrived',
  'Invoice address',
  'Refund for a returned item',
  'Cannot sign in',
  'Charged twice',
  'Password reset mail missing',
  'Change my plan',
  'The app crashes on start',
  'Export to CSV',
  'Wrong size delivered',
  'Cancel my subscription',
  'Two-factor codes rejected',
];
const CONTACTS = ['maria', 'li', 'sam', 'grace', 'omar', 'ines', 'noah', 'keiko', 'pablo', 'olga'];

/**
 * Thirty days of work: one to five conversations a day, each for a team and one of its agents,
 * answered after minutes to two hours (an hour is the teams' target), most resolved within a day,
 * half of the live chat's resolved ones rated. Written in time order, the SLA alerts
 * recorded as a worker would have.
 */
async function writeHistory(t: TestApp): Promise<Inbox> {
  const next = random(20261126);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)] as T;
  const policy = dataOf<{ id: number }>(
    await t.call({
      method: 'POST',
      url: '/api/v1/sla',
      payload: { name: 'Standard', first_response_minutes: 60, resolution_minutes: 1440 },
    }),
  );
  const billing = await createTeam(t, { name: 'Billing', emoji: '💳', sla_policy_id: policy.id });
  const technical = await createTeam(t, { name: 'Technical', emoji: '🛠️', sla_policy_id: policy.id });
  const maya = await t.makeAgent({ first_name: 'Maya', teams: [billing.id] });
  const priya = await t.makeAgent({ first_name: 'Priya', teams: [billing.id, technical.id] });
  const jonas = await t.makeAgent({ first_name: 'Jonas', teams: [technical.id] });
  const members = new Map<number, Caller[]>([
    [billing.id, [maya, priya]],
    [technical.id, [jonas, priya]],
  ]);
  const chat = await createInbox(t, {
    name: 'Website chat',
    csat_enabled: true,
    config: {
      brand_name: 'Acme Help',
      colors: { primary: '#4338ca' },
      greeting_message: 'Hi! How can we help today?',
      introduction_message: 'We usually answer within a few minutes.',
      chat_reply_expectation_message: 'Typically replies in 5 minutes',
    },
  });
  const email = await createInbox(t, { name: 'Support email', channel: 'email' });

  const put = async (uuid: string, path: string, payload: Record<string, unknown>, as?: Caller) =>
    dataOf(await t.call({ method: 'PUT', url: `/api/v1/conversations/${uuid}/${path}`, payload, ...(as ? { as } : {}) }));
  const events: Array<{ at: number; run: () => Promise<void> }> = [];
  const now = Date.now();
  const today = now - (now % DAY);
  for (let day = 29; day >= 0; day--) {
    const count = 1 + Math.floor(next() * 5);
    for (let i = 0; i < count; i++) {
      const created = today - day * DAY + 7 * HOUR + next() * 12 * HOUR;
      if (created > now - 2 * HOUR) continue;
      const team = next() < 0.58 ? billing : technical;
      const agent = pick(members.get(team.id) ?? []);
      const inbox = next() < 0.85 ? chat : email;
      const subject = pick(SUBJECTS);
      const contact = pick(CONTACTS);
      const replied = created + (3 + next() ** 3 * 120) * 60_000;
      const resolved = next() < 0.82 ? replied + (0.3 + next() ** 3 * 40) * HOUR : null;
      const rating =
        resolved !== null && inbox === chat && next() < 0.5 ? ([5, 5, 5, 5, 5, 4, 4, 4, 3, 2] as const)[Math.floor(next() * 10)] : null;
      let uuid = '';
      events.push({
        at: created,
        run: async () => {
          uuid = (
            await createConversation(t, {
              inbox_id: inbox.id,
              subject,
              content: `<p>${subject}: could you help?</p>`,
              contact_email: `${contact}@example.com`,
            })
          ).uuid;
          await put(uuid, 'assignee/team', { assignee_id: team.id });
          await put(uuid, 'assignee/user', { assignee_id: agent.id });
        },
      });
      if (replied < now)
        events.push({
          at: replied,
          run: async () => {
            dataOf(
              await t.call({
                method: 'POST',
                url: `/api/v1/conversations/${uuid}/messages`,
                payload: { message: '<p>Thanks for writing: we are on it.</p>' },
                as: agent,
              }),
            );
          },
        });
      if (resolved !== null && resolved < now)
        events.push({ at: resolved, run: async () => void (await put(uuid, 'status', { status: 'Resolved' }, agent)) });
      if (resolved !== null && rating !== null && resolved + HOUR < now)
        events.push({
          at: resolved + HOUR,
          run: async () => {
            const survey = dataOf<{ csat: { uuid: string } | null }>(await t.call({ url: `/api/v1/conversations/${uuid}` })).csat;
            assert.ok(survey, 'a survey was sent');
            dataOf(await t.call({ method: 'POST', url: `/api/v1/csat/${survey.uuid}/response`, payload: { rating }, as: null }));
          },
        });
    }
  }
  events.sort((a, b) => a.at - b.at);
  try {
    for (const event of events) {
      clock.at(event.at);
      await recordSlaAlerts(t.deps);
      await event.run();
    }
  } finally {
    clock.offset = 0;
  }
  await recordSlaAlerts(t.deps);
  return chat;
}

describe('the screenshots of a workspace with a history', { skip }, () => {
  let session: AdminSession | undefined;
  let page: Page;
  let chat: Inbox;

  before(async () => {
    session = await adminSession(
      async ({ t }) => {
        chat = await writeHistory(t);
      },
      { clock, viewport: { width: 1280, height: 860 } },
    );
    ({ page } = session);
  });
  after(() => session?.close());

  it('the service report over the last thirty days', async () => {
    await page.goto('/reports/service');
    await page
      .getByRole('table', { name: 'Per team' })
      .getByRole('row', { name: /Technical/ })
      .waitFor();
    await page.waitForLoadState('networkidle');
    const violations = await seriousViolations(page);
    assert.deepEqual(violations, [], describeViolations(violations));
    await shot(page, 'reports-service', { whole: true });
  });

  it("a live chat's appearance beside the widget's preview", async () => {
    await page.goto(`/admin/inboxes/${chat.id}`);
    await page.getByRole('tab', { name: 'Appearance' }).click();
    // Clicked, not tabbed to: the picture without the focus ring headless Chromium draws.
    await page.getByRole('tab', { name: 'Appearance' }).blur();
    // The real chat frame in preview mode, fed the settings.
    await page
      .getByRole('figure', { name: 'Preview of the chat widget' })
      .frameLocator('iframe')
      .getByText('Hi! How can we help today?')
      .waitFor();
    await page.waitForLoadState('networkidle');
    // The preview shows the customer's colours, which axe would judge (settings.browser.ts does the same).
    const violations = await seriousViolations(page, ['.widget-preview__box']);
    assert.deepEqual(violations, [], describeViolations(violations));
    await shot(page, 'admin-inbox-livechat');
  });

  it('logged no page errors', () => {
    assert.deepEqual(session?.errors, []);
  });
});
