// The channel table (channels.ts) is the one place a channel's behaviour is declared: every
// channel's delivery job has its handler, the batched runner takes exactly the batched ones, and
// no code compares a channel's name instead of asking the table for a trait.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, it } from 'node:test';
import type { InboxesTable } from '../db/types.ts';
import { BATCHED_JOB_KINDS, jobHandlers } from '../workers.ts';
import { CHANNEL_NAMES, CHANNEL_TABLE, type ChannelName, channelHas, channelsWith } from './channels.ts';
import { CHANNELS } from './inboxes.schema.ts';

const SRC = join(import.meta.dirname, '..');

/** The stored column's type is the table's names (type-checked: `npm run check` fails while they differ). */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const storedChannelsAreTheTable: Same<ChannelName, InboxesTable['channel']> = true;

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'migrations' ? [] : sources(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

describe('channels', () => {
  it('gives every channel its delivery job handler; the batched runner takes the batched channels’ jobs', () => {
    assert.ok(storedChannelsAreTheTable);
    assert.deepEqual([...CHANNELS], [...CHANNEL_NAMES], 'the API’s channel enum is the table’s');
    for (const name of CHANNEL_NAMES) assert.equal(typeof jobHandlers[CHANNEL_TABLE[name].deliveryJob], 'function', name);
    assert.deepEqual(BATCHED_JOB_KINDS, ['livechat.deliver']);
    assert.deepEqual(channelsWith('threadsByMail'), ['email']);
    assert.equal(channelHas('livechat', 'liveSocket'), true);
    assert.equal(channelHas('email', 'liveSocket'), false);
    assert.equal(channelHas('sms', 'widget'), false, 'a name the table does not know has no trait');
    assert.equal(channelHas(null, 'threadsByMail'), false);
  });

  it('no code compares a channel’s name: it asks the table', () => {
    const name = CHANNEL_NAMES.join('|');
    const comparison = new RegExp(`channel\\s*[!=]==\\s*'(${name})'|'(${name})'\\s*[!=]==\\s*\\S*channel|channel\\}\\$\\{`);
    const found = sources(SRC).flatMap((file) =>
      readFileSync(file, 'utf8')
        .split('\n')
        .map((line, i) => [line, i] as const)
        .filter(([line]) => comparison.test(line))
        .map(([line, i]) => `${relative(SRC, file)}:${i + 1}: ${line.trim()}`),
    );
    assert.deepEqual(found, []);
  });
});
