// The contact's survey page, /csat/{uuid}: HTML with a strict CSP, escaped text, labels and a
// lang attribute; its plain form post answers the survey (no JavaScript), and its refusals are pages.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createConversation, createInbox } from '../../test/factories.ts';
import { buildTestApp, dataOf, fakeClock, type TestApp } from '../../test/helpers.ts';

const DAY = 24 * 3_600_000;
const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

describe('the CSAT page', () => {
  const clock = fakeClock();
  let t: TestApp;

  before(async () => {
    t = await buildTestApp({ clock });
  });
  after(() => t.close());

  async function newSurvey(subject = 'Order <b>#12</b> & "more"') {
    const inbox = await createInbox(t, {
      csat_enabled: true,
      config: { brand_name: 'Acme <i>Support</i>', colors: { primary: '#abcdef' } },
    });
    const conversation = await createConversation(t, { inbox_id: inbox.id, subject });
    const resolved = dataOf<{ csat: { uuid: string } }>(
      await t.call({ method: 'PUT', url: `/api/v1/conversations/${conversation.uuid}/status`, payload: { status: 'Resolved' } }),
    );
    return resolved.csat.uuid;
  }

  const page = (uuid: string) => t.call({ method: 'GET', url: `/csat/${uuid}`, as: null });
  const post = (uuid: string, body: string) => t.call({ method: 'POST', url: `/csat/${uuid}`, as: null, headers: FORM, payload: body });
  const rating = async (uuid: string) =>
    dataOf<{ rating: number | null; feedback: string }>(await t.call({ method: 'GET', url: `/api/v1/csat/${uuid}`, as: null }));

  function assertPage(res: { statusCode: number; headers: Record<string, unknown>; body: string }, status: number) {
    assert.equal(res.statusCode, status, res.body);
    assert.match(String(res.headers['content-type']), /^text\/html; charset=utf-8/);
    const csp = String(res.headers['content-security-policy']);
    assert.match(csp, /default-src 'none'/);
    assert.match(csp, /form-action 'self'/);
    assert.match(csp, /frame-ancestors 'none'/);
    const nonce = /style-src 'nonce-([^']+)'/.exec(csp)?.[1];
    assert.ok(nonce, csp);
    assert.ok(res.body.includes(`<style nonce="${nonce}">`), 'the inline style carries the nonce of the CSP');
    assert.equal(res.headers['x-content-type-options'], 'nosniff');
    assert.equal(res.headers['cache-control'], 'no-store');
    assert.match(res.body, /^<!doctype html>\n<html lang="en">/);
    assert.doesNotMatch(res.body, /<script|<link|<img|src=/i, 'no script and nothing loaded from elsewhere');
  }

  it('renders the survey: brand and subject escaped, five labelled ratings, a labelled feedback box', async () => {
    const uuid = await newSurvey();
    const res = await page(uuid);
    assertPage(res, 200);
    assert.ok(res.body.includes('Acme &#60;i&#62;Support&#60;/i&#62;'));
    assert.ok(res.body.includes('Order &#60;b&#62;#12&#60;/b&#62; &#38; &#34;more&#34;'));
    assert.doesNotMatch(res.body, /<b>#12/);
    assert.ok(res.body.includes(`<form method="post">`));
    for (let value = 1; value <= 5; value++) {
      assert.ok(
        res.body.includes(`<label for="rating-${value}"><input type="radio" id="rating-${value}" name="rating" value="${value}" required>`),
      );
    }
    assert.ok(res.body.includes('<label class="block" for="feedback">'));
    assert.ok(res.body.includes('<textarea id="feedback" name="feedback" maxlength="2000"></textarea>'));
    assert.ok(res.body.includes('#abcdef'), 'the brand colour');
  });

  it('the form post saves the answer and shows the thanks; a second post changes it', async () => {
    const uuid = await newSurvey();
    const res = await post(uuid, 'rating=4&feedback=Great+help+%3Cscript%3Ealert(1)%3C%2Fscript%3E');
    assertPage(res, 200);
    assert.match(res.body, /role="status">Thank you/);
    assert.ok(res.body.includes('value="4" required checked>'));
    assert.ok(res.body.includes('Great help &#60;script&#62;alert(1)&#60;/script&#62;</textarea>'));
    const saved = await rating(uuid);
    assert.deepEqual([saved.rating, saved.feedback], [4, 'Great help <script>alert(1)</script>']);
    assertPage(await post(uuid, 'rating=2&feedback='), 200);
    const changed = await rating(uuid);
    assert.deepEqual([changed.rating, changed.feedback], [2, '']);
  });

  const refused: Array<[string, string, number, RegExp]> = [
    ['no rating', 'feedback=hello', 400, /choose a rating/],
    ['rating 0', 'rating=0', 400, /choose a rating/],
    ['rating 6', 'rating=6', 400, /choose a rating/],
    ['rating 4.0', 'rating=4.0', 400, /choose a rating/],
    ['a rating twice', 'rating=4&rating=5', 400, /once/],
    ['an unknown field', 'rating=4&other=1', 400, /other/],
    ['NUL in the feedback', 'rating=4&feedback=a%00b', 400, /NUL/],
    ['too long a feedback', `rating=4&feedback=${'x'.repeat(2001)}`, 400, /2000/],
  ];
  for (const [label, body, status, message] of refused) {
    it(`refuses ${label} with the form again and a message; nothing saved`, async () => {
      const uuid = await newSurvey();
      const res = await post(uuid, body);
      assertPage(res, status);
      assert.match(res.body, /role="alert"/);
      assert.match(res.body, message);
      assert.ok(res.body.includes('<form method="post"'), 'the form is shown again');
      assert.equal((await rating(uuid)).rating, null);
    });
  }

  it('keeps what was typed when the rating is missing', async () => {
    const uuid = await newSurvey();
    const res = await post(uuid, 'feedback=Kept+text');
    assertPage(res, 400);
    assert.ok(res.body.includes('>Kept text</textarea>'));
  });

  it('a form too large for any answer: 413, a page', async () => {
    const uuid = await newSurvey();
    const res = await post(uuid, `rating=4&feedback=${'%41'.repeat(10_000)}`);
    assertPage(res, 413);
  });

  it('a body in any other encoding (JSON, text) is a 415 page and saves nothing', async () => {
    const uuid = await newSurvey();
    for (const [type, payload] of [
      ['application/json', JSON.stringify({ rating: '5', feedback: 5 })],
      ['application/json', JSON.stringify({ rating: 5, feedback: ['x'] })],
      ['text/plain', 'rating=5'],
    ] as const) {
      const res = await t.call({ method: 'POST', url: `/csat/${uuid}`, as: null, headers: { 'content-type': type }, payload });
      assertPage(res, 415);
    }
    const survey = dataOf<{ rating: number | null }>(await t.call({ url: `/api/v1/csat/${uuid}`, as: null }));
    assert.equal(survey.rating, null);
  });

  it('unknown and malformed surveys: a 404 page', async () => {
    for (const uuid of ['00000000-0000-4000-8000-000000000000', 'not-a-uuid']) {
      const res = await page(uuid);
      assertPage(res, 404);
      assert.match(res.body, /Survey not found/);
      assertPage(await post(uuid, 'rating=5'), 404);
    }
  });

  it('after 7 days: the page says it is closed, with the rating given; a post is refused (422)', async () => {
    const uuid = await newSurvey();
    assertPage(await post(uuid, 'rating=3'), 200);
    clock.advance(7 * DAY + 1);
    const closed = await page(uuid);
    assertPage(closed, 200);
    assert.match(closed.body, /This survey is closed\. Your rating: 3 of 5/);
    assert.doesNotMatch(closed.body, /<form/);
    const late = await post(uuid, 'rating=5');
    assertPage(late, 422);
    assert.equal((await rating(uuid)).rating, 3);
  });
});
