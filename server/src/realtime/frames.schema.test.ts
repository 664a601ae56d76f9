// The socket frames' contract (frames.schema.ts): the generated types of the web app and the
// widget are those of the schemas (run `npm run openapi` after changing them), client frames are
// parsed with them, and the tests' socket helper refuses a server frame they do not describe.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { frameTypes } from '../../scripts/frame-types.ts';
import { frameViolation } from '../../test/sockets.ts';
import { frameChecker } from './frames.parse.ts';
import { AGENT_CLIENT_FRAMES, WIDGET_CLIENT_FRAMES } from './frames.schema.ts';

const UUID = '3df26850-e2a9-413b-80e2-d6d05f4cc47c';

describe('socket frames', () => {
  it('the generated frame types of the web app and the widget are up to date', async () => {
    for (const [file, expected] of Object.entries(await frameTypes())) {
      assert.ok(readFileSync(file, 'utf8') === expected, `${file} is stale: run \`npm run openapi\` and commit the result`);
    }
  });

  it('parses client frames by their schema: known types, typed fields, no unknown fields', () => {
    const agent = frameChecker(AGENT_CLIENT_FRAMES);
    assert.equal(agent('nonsense', { type: 'nonsense' }), null, 'an unknown type is not a frame of the socket');
    assert.deepEqual(agent('subscribe', { type: 'subscribe', data: { conversation_uuid: UUID } }), {
      ok: true,
      value: { type: 'subscribe', data: { conversation_uuid: UUID } },
    });
    const problems: Array<[Record<string, unknown>, string]> = [
      [{ type: 'subscribe', data: { conversation_uuid: 5 } }, 'data.conversation_uuid must be a conversation uuid'],
      [{ type: 'subscribe', data: { conversation_uuid: 'not-a-uuid' } }, 'data.conversation_uuid must be a conversation uuid'],
      [{ type: 'subscribe' }, 'data is required'],
      [{ type: 'subscribe', data: [] }, 'data must be object'],
      [{ type: 'typing', data: { conversation_uuid: UUID } }, 'data.is_typing is required'],
      [{ type: 'typing', data: { conversation_uuid: UUID, is_typing: 'yes' } }, 'data.is_typing must be a boolean'],
      [{ type: 'typing', data: { conversation_uuid: UUID, is_typing: true, is_private: 1 } }, 'data.is_private must be a boolean'],
      [{ type: 'typing', data: { conversation_uuid: UUID, is_typing: true, extra: 1 } }, 'data.extra is not allowed'],
    ];
    for (const [frame, message] of problems) {
      assert.deepEqual(agent(String(frame['type']), frame), { ok: false, message }, JSON.stringify(frame));
    }
    const widget = frameChecker(WIDGET_CLIENT_FRAMES);
    assert.deepEqual(widget('join', { type: 'join', data: { inbox_id: UUID } }), { ok: false, message: 'token is required' });
    assert.deepEqual(widget('page_visit', { type: 'page_visit', data: { url: 'https://example.com', title: 'x'.repeat(257) } }), {
      ok: false,
      message: 'data.title must be text of at most 256 characters',
    });
    assert.equal(
      widget('subscribe', { type: 'subscribe', data: { conversation_uuid: UUID } }),
      null,
      'an agent frame is not a widget frame',
    );
  });

  it('the socket helper refuses a server frame outside the schema, per socket', () => {
    const agent = 'ws://127.0.0.1:1/ws';
    const widget = 'ws://127.0.0.1:1/widget/ws';
    const event = { id: 4, created_at: '2026-11-29T09:00:00.000Z' };
    assert.equal(frameViolation(agent, { type: 'contact_update', data: { contact_id: 3, presence: 'online' } }), null);
    assert.equal(
      frameViolation(agent, { type: 'conversation_update', data: { uuid: UUID, priority: 'High', previous_priority: null }, event }),
      null,
    );
    // A field no event gives (the drift the web app once handled), a frame without its event, a widget-only frame.
    assert.ok(frameViolation(agent, { type: 'contact_update', data: { contact_id: 3, enabled: false } }));
    assert.ok(frameViolation(agent, { type: 'conversation_update', data: { uuid: UUID, priority: 'High', previous_priority: null } }));
    assert.ok(frameViolation(agent, { type: 'joined', data: { message: 'Joined' } }));
    assert.equal(frameViolation(widget, { type: 'joined', data: { message: 'Joined' } }), null);
    // The widget never hears of priorities, nor of who is typing.
    assert.ok(
      frameViolation(widget, { type: 'conversation_update', data: { uuid: UUID, priority: 'High', previous_priority: null }, event }),
    );
    assert.ok(
      frameViolation(widget, { type: 'typing', data: { conversation_uuid: UUID, is_typing: true, agent_id: 2, is_private: false } }),
    );
  });
});
