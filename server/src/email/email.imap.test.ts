// The reader's IMAP pieces that need no server: uid sets and errors as the admin sees them.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { describeMailError, uidSet } from './email.imap.ts';

describe('IMAP pieces', () => {
  it('writes uid sets as sorted ranges', () => {
    assert.equal(uidSet([]), '');
    assert.equal(uidSet([7]), '7');
    assert.equal(uidSet([3, 1, 2, 9, 12, 13, 14, 20]), '1:3,9,12:14,20');
    assert.equal(uidSet(Array.from({ length: 10_000 }, (_, i) => i + 1)), '1:10000');
  });

  it("describes a server's refusal with its code, and never shows a secret", () => {
    const refusal = Object.assign(new Error('Command failed'), {
      responseText: 'Authentication failed for s3cret-pw.',
      serverResponseCode: 'AUTHENTICATIONFAILED',
    });
    assert.equal(describeMailError(refusal, ['s3cret-pw']), 'Command failed: [AUTHENTICATIONFAILED] Authentication failed for [redacted].');
    const timeout = Object.assign(new Error('Socket timeout'), { code: 'ETIMEOUT' });
    assert.equal(describeMailError(timeout, ['']), 'Socket timeout (ETIMEOUT)');
    assert.equal(describeMailError('plain text', []), 'plain text');
    assert.equal(describeMailError(new Error('x'.repeat(5000)), []).length, 1000);
  });
});
