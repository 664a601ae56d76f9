// The sanitiser's URL rules (messages.content.ts): absolute http(s), mailto and tel links and
// http(s) or cid images are kept; relative URLs (which would resolve against Parley's own
// address or the widget's page) are dropped, the element kept without them.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { sanitizeMessageHtml } from './messages.content.ts';

const clean = (html: string) => sanitizeMessageHtml(html, 'content', { mentions: true });

describe('message HTML: URLs', () => {
  it('keeps absolute links and images', () => {
    assert.equal(
      clean('<a href="https://example.com/a">x</a>'),
      '<a href="https://example.com/a" rel="noopener noreferrer nofollow" target="_blank">x</a>',
    );
    assert.equal(
      clean('<a href="mailto:ann@example.com">m</a>'),
      '<a href="mailto:ann@example.com" rel="noopener noreferrer nofollow" target="_blank">m</a>',
    );
    assert.equal(clean('<img src="https://example.com/p.png" alt="p" />'), '<img src="https://example.com/p.png" alt="p" />');
    assert.equal(clean('<img src="cid:part1@example.com" />'), '<img src="cid:part1@example.com" />');
  });

  it('drops relative URLs in href and src, keeping the element', () => {
    for (const href of ['/api/v1/agents/me', 'page.html', '?q=1', '#top', '\\\\evil.example/x', '//evil.example/x', ' /x']) {
      assert.equal(clean(`<a href="${href}">x</a>`), '<a rel="noopener noreferrer nofollow" target="_blank">x</a>', href);
    }
    for (const src of ['/api/v1/media/1', 'pixel.gif', '\\\\evil.example/p.gif', '//evil.example/p.gif']) {
      assert.equal(clean(`<img src="${src}" alt="a" />`), '<img alt="a" />', src);
    }
  });

  it('still drops other schemes', () => {
    assert.equal(clean('<a href="javascript:alert(1)">x</a>'), '<a rel="noopener noreferrer nofollow" target="_blank">x</a>');
    assert.equal(clean('<img src="data:image/png;base64,AAAA" />'), '<img />');
  });
});

describe('message HTML: mentions', () => {
  it('keeps no mention markup unless asked (a public reply, a contact mail): the span stays, its ids go', () => {
    assert.equal(sanitizeMessageHtml('<p><span data-mention-agent-id="7">@Ana</span> hi</p>', 'content'), '<p><span>@Ana</span> hi</p>');
    assert.equal(sanitizeMessageHtml('<span data-mention-team-id="3">@Billing</span>', 'content'), '<span>@Billing</span>');
  });

  it('keeps the mention ids of a span in a note', () => {
    assert.equal(clean('<span data-mention-agent-id="7">@Ana Lima</span>'), '<span data-mention-agent-id="7">@Ana Lima</span>');
    assert.equal(
      clean('<p><span data-mention-team-id="3">@Billing</span> hi</p>'),
      '<p><span data-mention-team-id="3">@Billing</span> hi</p>',
    );
  });

  it('drops mention ids that are not digits, and every other data-* attribute', () => {
    for (const value of ['7a', '-1', ' 7', '0', '1e3', '12345678901', '7\u0000', '', 'javascript:x']) {
      assert.equal(clean(`<span data-mention-agent-id="${value}">@x</span>`), '<span>@x</span>', JSON.stringify(value));
    }
    assert.equal(
      clean('<span data-mention-agent-id="7" data-id="9" data-mention-other-id="2" class="c">@x</span>'),
      '<span data-mention-agent-id="7">@x</span>',
    );
    assert.equal(clean('<p data-mention-agent-id="7">x</p>'), '<p>x</p>', 'only on span');
    assert.equal(
      clean('<a href="https://a.example" data-mention-agent-id="7">x</a>'),
      '<a href="https://a.example" rel="noopener noreferrer nofollow" target="_blank">x</a>',
    );
  });
});
