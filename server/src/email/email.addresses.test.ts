import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  bareSubject,
  conversationOfPlusAddress,
  fallbackMessageId,
  firstSubject,
  messageIdsOf,
  outgoingMessageId,
  parseAddress,
  plusAddress,
  referenceOfSubject,
  replySubject,
} from './email.addresses.ts';

const inbox = parseAddress('"Acme Support" <Support@Example.COM>');
const UUID = '0f8b6a52-7d1c-4d0e-9a3b-2c5e8f1a6b7d';

describe('email addresses and identifiers', () => {
  it('parses an address with or without a display name', () => {
    assert.deepEqual(inbox, { name: 'Acme Support', address: 'Support@Example.COM', local: 'Support', domain: 'example.com' });
    assert.deepEqual(parseAddress('help@example.org'), { name: '', address: 'help@example.org', local: 'help', domain: 'example.org' });
  });

  it('round-trips a conversation through a plus address, and reads nothing else as one', () => {
    const plus = plusAddress(inbox, UUID.toUpperCase());
    assert.equal(plus, `Support+conv-${UUID}@example.com`);
    assert.equal(conversationOfPlusAddress(inbox, plus), UUID);
    assert.equal(conversationOfPlusAddress(inbox, `support+CONV-${UUID.toUpperCase()}@EXAMPLE.com`), UUID);
    for (const other of [
      `sales+conv-${UUID}@example.com`,
      `support+conv-${UUID}@example.net`,
      `support+conv-${UUID.slice(1)}@example.com`,
      'support@example.com',
      `support+x-${UUID}@example.com`,
      'not an address',
    ]) {
      assert.equal(conversationOfPlusAddress(inbox, other), null, other);
    }
  });

  it('reads plus addresses of an inbox whose own address has a plus', () => {
    const eu = parseAddress('support+eu@example.com');
    const plus = plusAddress(eu, UUID);
    assert.equal(plus, `support+eu+conv-${UUID}@example.com`);
    assert.equal(conversationOfPlusAddress(eu, plus), UUID);
    assert.equal(conversationOfPlusAddress(eu, `support+conv-${UUID}@example.com`), null, "the plain inbox's address is another inbox");
    assert.equal(conversationOfPlusAddress(inbox, plus), null);
  });

  it('makes stable Message-IDs, and a digest for a mail without one', () => {
    assert.equal(outgoingMessageId(UUID.toUpperCase(), inbox), `${UUID}@example.com`);
    const raw = Buffer.from('Subject: hi\r\n\r\nbody');
    assert.equal(fallbackMessageId(raw, inbox), fallbackMessageId(Buffer.from(raw), inbox));
    assert.notEqual(fallbackMessageId(raw, inbox), fallbackMessageId(Buffer.from('Subject: hi\r\n\r\nbody2'), inbox));
    assert.match(fallbackMessageId(raw, inbox), /^missing-[0-9a-f]{40}@example\.com$/);
  });

  it('reads Message-ID lists, bracketed or not, each once, in order', () => {
    assert.deepEqual(messageIdsOf('<a@x> <b@y>\r\n <a@x>'), ['a@x', 'b@y']);
    assert.deepEqual(messageIdsOf(['<a@x>', '<c@z>']), ['a@x', 'c@z']);
    assert.deepEqual(messageIdsOf('a@x, b@y'), ['a@x', 'b@y']);
    assert.deepEqual(messageIdsOf(undefined), []);
    assert.deepEqual(messageIdsOf('garbage'), []);
  });

  it('puts one reference in a subject, and reads the last one back', () => {
    assert.equal(replySubject('Refund', '42'), 'Re: Refund [#42]');
    assert.equal(replySubject('RE: AW: Refund [#42]', '42'), 'Re: Refund [#42]');
    assert.equal(replySubject('', '7'), '[#7]');
    assert.equal(firstSubject('Your order', '9'), 'Your order [#9]');
    assert.equal(referenceOfSubject('Re: Refund [#42]'), '42');
    assert.equal(referenceOfSubject('Fwd: [#1] old and [#42] new'), '42');
    assert.equal(referenceOfSubject('Order #42'), null);
    assert.equal(bareSubject('Fwd: Re:  Refund   [#42]'), 'Refund');
  });
});
