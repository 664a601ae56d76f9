// The widget's live preview (POST /inboxes/{id}/widget-preview): the answer is what the widget's
// own settings and launcher routes answer once the same settings are saved; the draft is checked
// as the update checks it; nothing is saved; the refusals of an admin route.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { agentWith, createBusinessHours, createInbox } from '../../test/factories.ts';
import { assertError, buildTestApp, dataOf, fakeClock, type TestApp } from '../../test/helpers.ts';
import { createWidgetInbox, widgetCall } from '../../test/widget.ts';

// Saturday 28 November 2026, 12:00 in Berlin: outside Monday to Friday 09:00-17:00.
const SATURDAY = new Date('2026-11-28T11:00:00Z');

interface Preview {
  settings: Record<string, unknown> & { colors: { primary: string }; is_open: boolean; next_open_at: string | null };
  launcher: { launcher: { color: string; position: string }; colors: { primary: string } };
}

describe('widget preview', () => {
  let t: TestApp;
  before(async () => {
    t = await buildTestApp({ clock: fakeClock(SATURDAY) });
  });
  after(() => t.close());

  const preview = (id: number | string, payload: unknown, as?: Awaited<ReturnType<typeof agentWith>> | null) =>
    t.call({
      method: 'POST',
      url: `/api/v1/inboxes/${id}/widget-preview`,
      payload: payload as Record<string, unknown>,
      ...(as !== undefined ? { as } : {}),
    });
  const inboxConfig = async (id: number) =>
    dataOf<{ config: Record<string, unknown> }>(await t.call({ method: 'GET', url: `/api/v1/inboxes/${id}` })).config;

  it('answers what the widget answers once the same settings are saved, and saves nothing', async () => {
    const chat = await createWidgetInbox(t, { brand_name: 'Before' });
    const hours = await createBusinessHours(t);
    const stored = await inboxConfig(chat.inbox.id);
    const draft = {
      ...stored,
      brand_name: 'Acme help',
      greeting_message: 'Hello from the draft',
      colors: { primary: '#0f766e' },
      launcher: { position: 'left', spacing: { side: 30, bottom: 40 }, logo_url: '', color: '' },
      notice_banner: { enabled: true, text: 'Closed on holidays' },
      prechat_form: {
        enabled: true,
        title: 'Tell us who you are',
        fields: [
          { key: 'name', type: 'text', label: 'Name', placeholder: '', required: true, enabled: true, order: 1, is_default: true },
          { key: 'email', type: 'email', label: 'Email', placeholder: '', required: false, enabled: false, order: 2, is_default: true },
        ],
      },
      business_hours_id: hours.id,
      show_office_hours_in_chat: true,
      trusted_domains: ['shop.example.com'],
    };
    const answer = dataOf<Preview>(await preview(chat.inbox.id, draft));
    assert.equal(answer.settings['brand_name'], 'Acme help');
    assert.equal(answer.settings.colors.primary, '#0f766e');
    assert.deepEqual(answer.launcher.launcher, { spacing: { side: 30, bottom: 40 }, logo_url: '', position: 'left', color: '#0f766e' });
    assert.equal(answer.settings.is_open, false, 'the hours the draft names, closed on Saturday');
    assert.equal(answer.settings.next_open_at, '2026-11-30T08:00:00.000Z');
    assert.deepEqual(
      (answer.settings['prechat_form'] as { fields: Array<{ key: string }> }).fields.map((f) => f.key),
      ['name'],
    );
    for (const hidden of ['secret', 'trusted_domains', 'blocked_ips', 'session_duration'])
      assert.equal(hidden in answer.settings, false, hidden);

    // Nothing was saved.
    assert.equal((await inboxConfig(chat.inbox.id))['brand_name'], 'Before');
    assert.equal(dataOf<{ brand_name: string }>(await widgetCall(t, { url: 'chat/settings', inbox: chat.uuid })).brand_name, 'Before');

    // Saved, the widget's own routes answer exactly the preview.
    dataOf(await t.call({ method: 'PUT', url: `/api/v1/inboxes/${chat.inbox.id}`, payload: { config: draft } }));
    assert.deepEqual(dataOf(await widgetCall(t, { url: 'chat/settings', inbox: chat.uuid })), answer.settings);
    assert.deepEqual(dataOf(await widgetCall(t, { url: 'chat/settings/launcher', inbox: chat.uuid })), answer.launcher);
  });

  it('fills the defaults of an empty draft, as an update does', async () => {
    const chat = await createWidgetInbox(t);
    const answer = dataOf<Preview>(await preview(chat.inbox.id, {}));
    assert.equal(answer.settings['brand_name'], 'Support');
    assert.equal(answer.settings.colors.primary, '#2563eb');
    assert.equal(answer.settings.is_open, true);
    assert.deepEqual(answer.launcher.launcher, { spacing: { side: 20, bottom: 20 }, logo_url: '', position: 'right', color: '#2563eb' });
  });

  it('refuses a draft the update would refuse, naming the field', async () => {
    const chat = await createWidgetInbox(t);
    const cases: Array<[string, unknown, string]> = [
      ['a bad colour', { colors: { primary: 'red' } }, 'config.colors.primary'],
      ['an unknown key', { brand: 'x' }, 'config.brand'],
      ['a huge brand name', { brand_name: 'x'.repeat(100_000) }, 'config.brand_name'],
      ['a spacing out of range', { launcher: { spacing: { side: 9999 } } }, 'config.launcher.spacing.side'],
      ['unknown business hours', { business_hours_id: 999_999 }, 'config.business_hours_id'],
      ['a duplicated pre-chat key', { prechat_form: { fields: [FIELD, FIELD] } }, 'config.prechat_form.fields.1.key'],
      ['a bad trusted domain', { trusted_domains: ['https://x.example'] }, 'config.trusted_domains.0'],
    ];
    for (const [label, body, field] of cases) {
      const refused = assertError(await preview(chat.inbox.id, body), 400, 'InputException', label);
      assert.deepEqual(
        (refused.data as { errors: Array<{ field: string }> }).errors.map((e) => e.field),
        [field],
        label,
      );
    }
    for (const [label, body] of [
      ['a NUL', { brand_name: 'A\u0000B' }],
      ['not an object', ['brand_name']],
      ['null', null],
    ] as const) {
      assertError(await preview(chat.inbox.id, body), 400, 'InputException', label);
    }
    const raw = await t.call({
      method: 'POST',
      url: `/api/v1/inboxes/${chat.inbox.id}/widget-preview`,
      headers: { 'content-type': 'application/json' },
      payload: '{"brand_name": "A\\u0000B"}',
    });
    assertError(raw, 400, 'InputException', 'an escaped NUL');
  });

  it('refuses callers without the permission, unknown inboxes and email inboxes', async () => {
    const chat = await createWidgetInbox(t);
    assertError(await preview(chat.inbox.id, {}, null), 401, 'UnauthorizedException');
    const agent = await agentWith(t, ['conversations:read_all']);
    assertError(await preview(chat.inbox.id, {}, agent), 403, 'PermissionException');
    const manager = await agentWith(t, ['inboxes:manage']);
    dataOf(await preview(chat.inbox.id, {}, manager));
    assertError(await preview(999_999, {}), 404, 'NotFoundException');
    assertError(await preview('nope', {}), 404, 'NotFoundException', 'a malformed id');
    const email = await createInbox(t, { channel: 'email' });
    assertError(await preview(email.id, {}), 422, 'DataException');
    dataOf(await t.call({ method: 'DELETE', url: `/api/v1/inboxes/${chat.inbox.id}` }));
    assertError(await preview(chat.inbox.id, {}), 404, 'NotFoundException', 'a deleted inbox');
  });
});

const FIELD = { key: 'name', type: 'text', label: 'Name', placeholder: '', required: true, enabled: true, order: 1, is_default: true };
