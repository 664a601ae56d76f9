// The blocked-address rule of live-chat inboxes, as a table.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isAddressBlocked } from './widget.inbox.ts';

describe('widget inbox: blocked addresses', () => {
  const blocked = ['203.0.113.7', '198.51.100.0/24', '2001:db8::/32', '::1', 'garbage', '10.0.0.0/99'];
  const cases: Array<[string, boolean]> = [
    ['203.0.113.7', true],
    ['203.0.113.8', false],
    ['198.51.100.200', true],
    ['198.51.101.1', false],
    ['::ffff:198.51.100.9', true],
    ['2001:db8:1::5', true],
    ['2001:db9::1', false],
    ['::1', true],
    ['10.0.0.1', false],
    ['not an address', false],
  ];
  for (const [address, expected] of cases) {
    it(`${address} → ${expected ? 'blocked' : 'allowed'}`, () => assert.equal(isAddressBlocked(blocked, address), expected));
  }
  it('an empty list blocks nobody', () => assert.equal(isAddressBlocked([], '203.0.113.7'), false));
});
