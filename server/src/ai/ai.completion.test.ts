// AI completions against an OpenAI-compatible server on loopback (server/test/openai-server.ts),
// through the official `openai` package over a real socket.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:net';
import { after, before, beforeEach, describe, it } from 'node:test';
import { assertError, buildTestApp, type Caller, dataOf, type TestApp } from '../../test/helpers.ts';
import { type FakeOpenAi, startFakeOpenAi } from '../../test/openai-server.ts';
import { encryptSecret, SECRET_MASK } from '../security/encryption.ts';
import { PREAMBLE, shapeAnswer } from './ai.completion.ts';

const TIMEOUT_MS = 1500;
const KEY = 'sk-test-key';
const MODEL = 'test-model';

/** A loopback port nobody listens on. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('AI completion', () => {
  let t: TestApp;
  let fake: FakeOpenAi;
  let agent: Caller;

  before(async () => {
    t = await buildTestApp({ env: { AI_TIMEOUT_MS: String(TIMEOUT_MS), AI_RATE_LIMIT_PER_MINUTE: '0' } });
    fake = await startFakeOpenAi({ apiKey: KEY, models: [MODEL] });
    agent = await t.makeAgent();
  });
  after(async () => {
    await t.close();
    await fake.close();
  });
  beforeEach(() => {
    fake.behaviour = { kind: 'echo' };
    fake.delayMs = 0;
    fake.apiKey = KEY;
  });

  const complete = (payload: unknown, as: Caller | null = agent) =>
    t.call({ method: 'POST', url: '/api/v1/ai/completion', payload: payload as Record<string, unknown>, as });
  const configure = async (body: Record<string, unknown>) =>
    assert.equal(dataOf(await t.call({ method: 'PUT', url: '/api/v1/ai/provider', payload: { provider: 'openai', ...body } })), true);

  it('answers 400 when no provider is configured, without calling anyone', async () => {
    const res = await complete({ prompt_key: 'make_friendly', content: '<p>Hello</p>' });
    assert.match(assertError(res, 400, 'InputException').message, /No AI provider is configured: an administrator sets one/);
    assert.equal(fake.requests.length, 0);
  });

  it('sends the draft with the prompt to the provider and answers the generated text', async () => {
    await configure({ api_key: KEY, base_url: fake.baseUrl, model: MODEL });
    const prompt = dataOf<Array<{ key: string; content: string }>>(await t.call({ method: 'GET', url: '/api/v1/ai/prompts' })).find(
      (p) => p.key === 'make_friendly',
    );
    assert.ok(prompt);
    fake.behaviour = { kind: 'answer', text: '<p>Hello, <strong>dear</strong> customer!</p>' };
    const res = await complete({ prompt_key: 'make_friendly', content: '<p>Hello customer.</p>' });
    assert.equal(dataOf<string>(res), '<p>Hello, <strong>dear</strong> customer!</p>');
    assert.equal(fake.requests.length, 1);
    const [request] = fake.requests;
    assert.ok(request);
    assert.equal(request.method, 'POST');
    assert.equal(request.path, '/v1/chat/completions');
    assert.equal(request.authorization, `Bearer ${KEY}`);
    assert.equal((request.body as { model: string }).model, MODEL);
    const messages = fake.messagesOf(request);
    assert.equal(messages.length, 2);
    assert.equal(messages[0]?.role, 'system');
    assert.ok(messages[0]?.content.startsWith(PREAMBLE));
    assert.ok(messages[0]?.content.endsWith(prompt.content));
    assert.match(messages[0]?.content ?? '', /HTML fragment/);
    assert.deepEqual(messages[1], { role: 'user', content: '<p>Hello customer.</p>' });
  });

  it("sends a prompt's edited text", async () => {
    const edit = await t.call({ method: 'PUT', url: '/api/v1/ai/prompts/make_concise', payload: { content: 'Cut it to one sentence.' } });
    dataOf(edit);
    fake.requests.length = 0;
    dataOf(await complete({ prompt_key: 'make_concise', content: 'A long reply.' }));
    assert.ok(fake.messagesOf(fake.requests[0]!)[0]?.content.endsWith('\n\nCut it to one sentence.'));
  });

  it('sanitises an HTML answer like a message: scripts and handlers are gone, one code fence is stripped', async () => {
    fake.behaviour = {
      kind: 'answer',
      text: '```html\n<p>Hi <a href="javascript:alert(1)" onclick="x()">there</a></p><script>alert(1)</script><img src="https://example.com/a.png" onerror="alert(2)">\n```',
    };
    const data = dataOf<string>(await complete({ prompt_key: 'make_professional', content: '<p>hi</p>' }));
    assert.ok(!/script|onerror|onclick|javascript|```/i.test(data), data);
    assert.match(data, /^<p>Hi <a[^>]*>there<\/a><\/p><img src="https:\/\/example.com\/a.png" \/>$/);
  });

  it('a plain-text draft gets plain text back, untouched; an HTML draft answered in text gets paragraphs', async () => {
    fake.behaviour = { kind: 'answer', text: 'Dear Ann,\n\nThanks <3 & see you.' };
    fake.requests.length = 0;
    assert.equal(
      dataOf<string>(await complete({ prompt_key: 'add_empathy', content: 'dear ann\nthanks' })),
      'Dear Ann,\n\nThanks <3 & see you.',
    );
    assert.match(fake.messagesOf(fake.requests[0]!)[0]?.content ?? '', /plain text/);
    fake.behaviour = { kind: 'answer', text: 'Dear Ann,\nwelcome.\n\nThanks <3 & see you.' };
    assert.equal(
      dataOf<string>(await complete({ prompt_key: 'add_empathy', content: '<p>dear ann</p>' })),
      '<p>Dear Ann,<br>welcome.</p><p>Thanks &lt;3 &amp; see you.</p>',
    );
  });

  it('unknown prompt key: 400 naming it, nothing sent', async () => {
    fake.requests.length = 0;
    const res = await complete({ prompt_key: 'make_funny', content: 'hello' });
    assert.match(assertError(res, 400, 'InputException').message, /make_funny/);
    assert.equal(fake.requests.length, 0);
  });

  it('refuses bad bodies with 400 before calling the provider', async () => {
    fake.requests.length = 0;
    const cases: unknown[] = [
      {},
      { prompt_key: 'make_friendly' },
      { content: 'hello' },
      { prompt_key: 'make_friendly', content: '' },
      { prompt_key: 'make_friendly', content: '   \n' },
      { prompt_key: 'make_friendly', content: 'x'.repeat(20_001) },
      { prompt_key: 'make_friendly', content: 42 },
      { prompt_key: 42, content: 'hello' },
      { prompt_key: '', content: 'hello' },
      { prompt_key: 'k'.repeat(65), content: 'hello' },
      { prompt_key: 'make_friendly', content: 'hel\u0000lo' },
      { prompt_key: 'make_friendly\u0000', content: 'hello' },
      { prompt_key: 'make_friendly', content: 'hello', model: 'gpt-5' },
      ['make_friendly', 'hello'],
    ];
    for (const payload of cases) {
      assertError(await complete(payload), 400, 'InputException', JSON.stringify(payload).slice(0, 80));
    }
    assert.equal(fake.requests.length, 0);
  });

  it('answers 401 without credentials and 403 without messages:write', async () => {
    const nobody = await t.makeAgent({ roles: [] });
    fake.requests.length = 0;
    assertError(await complete({ prompt_key: 'make_friendly', content: 'hi' }, null), 401, 'UnauthorizedException');
    const denied = assertError(await complete({ prompt_key: 'make_friendly', content: 'hi' }, nobody), 403, 'PermissionException');
    assert.match(denied.message, /messages:write/);
    assert.equal(fake.requests.length, 0);
  });

  it('a key the provider refuses is a 502 saying so (the caller’s own credentials are fine)', async () => {
    fake.apiKey = 'sk-another-key';
    const res = await complete({ prompt_key: 'make_friendly', content: 'hi' });
    const body = assertError(res, 502, 'NetworkException');
    assert.match(body.message, /refused the API key \(HTTP 401, invalid_api_key\)/);
    assert.ok(!body.message.includes(KEY));
    fake.apiKey = KEY;
    fake.behaviour = { kind: 'status', status: 403, code: 'unsupported_country_region_territory' };
    assert.match(
      assertError(await complete({ prompt_key: 'make_friendly', content: 'hi' }), 502, 'NetworkException').message,
      /refused the API key/,
    );
  });

  it('provider errors are 502: rate limiting, server errors, unknown model', async () => {
    fake.behaviour = { kind: 'status', status: 429, code: 'rate_limit_exceeded', headers: { 'retry-after': '1' } };
    fake.requests.length = 0;
    const limited = assertError(await complete({ prompt_key: 'make_friendly', content: 'hi' }), 502, 'NetworkException');
    assert.match(limited.message, /rate limiting/);
    assert.equal(fake.requests.length, 1, 'no retry');
    fake.behaviour = { kind: 'status', status: 500 };
    assert.match(assertError(await complete({ prompt_key: 'make_friendly', content: 'hi' }), 502, 'NetworkException').message, /HTTP 500/);
    fake.behaviour = { kind: 'status', status: 503 };
    assertError(await complete({ prompt_key: 'make_friendly', content: 'hi' }), 502, 'NetworkException');
    fake.behaviour = { kind: 'echo' };
    await configure({ api_key: SECRET_MASK, model: 'no-such-model' });
    assert.match(
      assertError(await complete({ prompt_key: 'make_friendly', content: 'hi' }), 502, 'NetworkException').message,
      /model_not_found/,
    );
    await configure({ api_key: SECRET_MASK, model: MODEL });
  });

  it('an answer that is not a chat completion is a 502', async () => {
    for (const behaviour of [
      { kind: 'malformed' },
      { kind: 'not-a-completion' },
      { kind: 'answer', text: '  ' },
      { kind: 'answer', text: '<script>x</script>' },
    ] as const) {
      fake.behaviour = behaviour;
      assertError(await complete({ prompt_key: 'make_friendly', content: '<p>hi</p>' }), 502, 'NetworkException', behaviour.kind);
    }
  });

  it('a provider that does not answer is a 504 within AI_TIMEOUT_MS, headers or body', async () => {
    for (const behaviour of [{ kind: 'hang' }, { kind: 'hang-body' }] as const) {
      fake.behaviour = behaviour;
      const started = performance.now();
      const res = await complete({ prompt_key: 'make_friendly', content: 'hi' });
      const elapsed = performance.now() - started;
      assert.match(assertError(res, 504, 'NetworkException', behaviour.kind).message, /did not answer within 1\.5 s/);
      assert.ok(elapsed >= TIMEOUT_MS - 50 && elapsed < TIMEOUT_MS + 3000, `${behaviour.kind}: ${elapsed} ms`);
    }
  });

  it('an unreachable provider is a 502', async () => {
    await configure({ api_key: KEY, base_url: `http://127.0.0.1:${await closedPort()}/v1` });
    assert.match(
      assertError(await complete({ prompt_key: 'make_friendly', content: 'hi' }), 502, 'NetworkException').message,
      /could not be reached/,
    );
    await configure({ api_key: KEY, base_url: fake.baseUrl });
  });

  it('a stored key that cannot be decrypted (SECRET_KEY changed) is a 422 asking for it again, nothing sent', async () => {
    await t.deps.db
      .updateTable('ai_providers')
      .set({ api_key: encryptSecret(randomBytes(32), KEY) })
      .execute();
    fake.requests.length = 0;
    const res = await complete({ prompt_key: 'make_friendly', content: 'hi' });
    assert.match(assertError(res, 422, 'DataException').message, /cannot be read \(was SECRET_KEY changed\?\)/);
    assert.equal(fake.requests.length, 0);
    await configure({ api_key: KEY });
    assert.equal(dataOf<string>(await complete({ prompt_key: 'make_friendly', content: 'hi' })), 'hi');
  });

  it('uses a new key as soon as it is saved, and sends no Authorization without a key', async () => {
    fake.apiKey = 'sk-rotated';
    assertError(await complete({ prompt_key: 'make_friendly', content: 'hi' }), 502, 'NetworkException');
    await configure({ api_key: 'sk-rotated' });
    fake.requests.length = 0;
    assert.equal(dataOf<string>(await complete({ prompt_key: 'make_friendly', content: 'hi' })), 'hi');
    assert.equal(fake.requests[0]?.authorization, 'Bearer sk-rotated');
    await configure({ api_key: '' });
    fake.apiKey = null;
    fake.requests.length = 0;
    assert.equal(dataOf<string>(await complete({ prompt_key: 'make_friendly', content: 'hi' })), 'hi');
    assert.equal(fake.requests[0]?.authorization, undefined);
    await configure({ api_key: KEY });
  });

  it('after the provider is removed, completions are refused again', async () => {
    dataOf(await t.call({ method: 'DELETE', url: '/api/v1/ai/provider' }));
    assertError(await complete({ prompt_key: 'make_friendly', content: 'hi' }), 400, 'InputException');
    await configure({ api_key: KEY, base_url: fake.baseUrl, model: MODEL });
  });
});

describe('AI completion: the per-agent rate limit', () => {
  let t: TestApp;
  let fake: FakeOpenAi;
  before(async () => {
    t = await buildTestApp({ env: { AI_RATE_LIMIT_PER_MINUTE: '2' } });
    fake = await startFakeOpenAi({ apiKey: KEY });
    dataOf(
      await t.call({ method: 'PUT', url: '/api/v1/ai/provider', payload: { provider: 'openai', api_key: KEY, base_url: fake.baseUrl } }),
    );
  });
  after(async () => {
    await t.close();
    await fake.close();
  });

  const complete = (as: Caller, payload: Record<string, unknown> = { prompt_key: 'make_friendly', content: 'hi' }) =>
    t.call({ method: 'POST', url: '/api/v1/ai/completion', payload, as });

  it('refuses the third completion of a minute with 429 and Retry-After; another agent keeps its own budget', async () => {
    const ann = await t.makeAgent();
    const bob = await t.makeAgent();
    dataOf(await complete(ann));
    dataOf(await complete(ann));
    const refused = await complete(ann);
    assertError(refused, 429, 'RateLimitException');
    const retryAfter = Number(refused.headers['retry-after']);
    assert.ok(Number.isInteger(retryAfter) && retryAfter > 0 && retryAfter <= 60, String(refused.headers['retry-after']));
    assert.equal(fake.requests.length, 2);
    dataOf(await complete(bob));
    dataOf(await complete(bob));
    assertError(await complete(bob), 429, 'RateLimitException');
  });

  it('a refused body costs nothing', async () => {
    const cyd = await t.makeAgent();
    for (let i = 0; i < 3; i += 1) assertError(await complete(cyd, { prompt_key: 'make_friendly', content: '' }), 400, 'InputException');
    dataOf(await complete(cyd));
    dataOf(await complete(cyd));
    assertError(await complete(cyd), 429, 'RateLimitException');
  });
});

describe('shapeAnswer', () => {
  it('strips one whole-answer fence only', () => {
    assert.equal(shapeAnswer('```\nplain\n```', false), 'plain');
    assert.equal(shapeAnswer('Use `code` and ```x``` inline', false), 'Use `code` and ```x``` inline');
    assert.equal(shapeAnswer('```html\n<p>a</p>\n```', true), '<p>a</p>');
  });
});
