// The AI provider settings and the prompts (docs/api.md, "AI writing helper").
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { assertError, buildTestApp, type Caller, dataOf, type TestApp } from '../../test/helpers.ts';
import { decryptSecret, SECRET_MASK } from '../security/encryption.ts';

type Provider = {
  provider: string;
  base_url: string;
  model: string;
  api_key: string;
  has_api_key: boolean;
  created_at: string;
  updated_at: string;
};
type Prompt = { id: number; key: string; title: string; content: string; created_at: string; updated_at: string };

const BUILT_IN = ['add_empathy', 'adjust_positive_tone', 'fix_grammar_spelling', 'make_concise', 'make_friendly', 'make_professional'];

describe('AI provider', () => {
  let t: TestApp;
  let agent: Caller;
  before(async () => {
    t = await buildTestApp();
    agent = await t.makeAgent();
  });
  after(() => t.close());

  const get = async () => dataOf<Provider | null>(await t.call({ method: 'GET', url: '/api/v1/ai/provider' }));
  const put = (payload: unknown, as?: Caller | null) =>
    t.call({ method: 'PUT', url: '/api/v1/ai/provider', payload: payload as Record<string, unknown>, ...(as === undefined ? {} : { as }) });
  const row = () => t.deps.db.selectFrom('ai_providers').selectAll().executeTakeFirst();

  const status = async (as?: Caller | null) => t.call({ method: 'GET', url: '/api/v1/ai/status', ...(as === undefined ? {} : { as }) });

  it('answers null before a provider is set, and refuses the mask when no key is stored', async () => {
    assert.equal(await get(), null);
    assert.deepEqual(dataOf(await status(agent)), { enabled: false }, 'any agent is told AI is off');
    assertError(await status(null), 401, 'UnauthorizedException');
    const res = await put({ provider: 'openai', api_key: SECRET_MASK });
    assert.match(assertError(res, 400, 'InputException').message, /api_key: no key is stored yet/);
    assert.equal(await row(), undefined);
  });

  it('sets a provider with defaults, the key encrypted at rest and masked in answers', async () => {
    assert.equal(dataOf(await put({ provider: 'openai', api_key: 'sk-secret-0001' })), true);
    const provider = await get();
    assert.ok(provider);
    assert.deepEqual(Object.keys(provider).sort(), ['api_key', 'base_url', 'created_at', 'has_api_key', 'model', 'provider', 'updated_at']);
    assert.equal(provider.provider, 'openai');
    assert.equal(provider.base_url, 'https://api.openai.com/v1');
    assert.equal(provider.model, 'gpt-4o-mini');
    assert.equal(provider.api_key, SECRET_MASK);
    assert.equal(provider.has_api_key, true);
    const stored = await row();
    assert.ok(stored);
    assert.match(stored.api_key, /^enc:v1:/);
    assert.ok(!stored.api_key.includes('sk-secret-0001'));
    assert.equal(decryptSecret(t.deps.config.secretKey, stored.api_key), 'sk-secret-0001');
    assert.equal(stored.kind, 'completion');
    assert.deepEqual(dataOf(await status(agent)), { enabled: true }, 'an agent without ai:manage is told AI is on');
  });

  it('keeps the stored key when the mask comes back, and base_url and model when left out', async () => {
    const before = await row();
    assert.equal(dataOf(await put({ provider: 'openai', api_key: SECRET_MASK, model: ' llama3.2 ' })), true);
    assert.equal(dataOf(await put({ provider: 'openai', api_key: SECRET_MASK, base_url: 'https://api.openai.com/v1/' })), true);
    assert.equal((await row())?.api_key, before?.api_key);
    assert.equal((await get())?.model, 'llama3.2');

    // A kept key never goes to another server: a new base_url needs the key again.
    const moved = await put({ provider: 'openai', api_key: SECRET_MASK, base_url: 'http://localhost:11434/v1' });
    assert.match(assertError(moved, 400, 'InputException').message, /api_key: must be sent again when base_url changes/);
    assert.deepEqual(await row(), { ...before, model: 'llama3.2', updated_at: (await row())?.updated_at });
    assert.equal((await get())?.base_url, 'https://api.openai.com/v1');

    assert.equal(dataOf(await put({ provider: 'openai', api_key: 'sk-secret-0002', base_url: 'http://localhost:11434/v1/' })), true);
    // Only the key changes: base URL and model stay.
    assert.equal(dataOf(await put({ provider: 'openai', api_key: 'sk-secret-0003' })), true);
    const changed = await get();
    assert.equal(changed?.base_url, 'http://localhost:11434/v1');
    assert.equal(changed?.model, 'llama3.2');
    const stored = await row();
    assert.equal(decryptSecret(t.deps.config.secretKey, stored?.api_key ?? ''), 'sk-secret-0003');
  });

  it('accepts an empty key for servers that need none (Ollama), and then refuses the mask', async () => {
    assert.equal(dataOf(await put({ provider: 'openai', api_key: '', base_url: 'http://127.0.0.1:11434/v1' })), true);
    const provider = await get();
    assert.equal(provider?.api_key, '');
    assert.equal(provider?.has_api_key, false);
    assert.equal((await row())?.api_key, '');
    assertError(await put({ provider: 'openai', api_key: SECRET_MASK }), 400, 'InputException');
    assert.equal(dataOf(await put({ provider: 'openai', api_key: 'sk-secret-0003' })), true);
  });

  it('refuses bad bodies with 400 and changes nothing', async () => {
    const before = await row();
    const cases: Array<[unknown, RegExp]> = [
      [{ provider: 'anthropic', api_key: 'k' }, /openai/],
      [{ api_key: 'k' }, /provider/],
      [{ provider: 'openai' }, /api_key/],
      [{ provider: 'openai', api_key: 42 }, /api_key/],
      [{ provider: 'openai', api_key: 'x'.repeat(501) }, /api_key/],
      [{ provider: 'openai', api_key: 'sk with space' }, /api_key/],
      [{ provider: 'openai', api_key: 'sk-\u0000' }, /api_key|U\+0000/],
      [{ provider: 'openai', api_key: 'sk-ünicode' }, /api_key/],
      [{ provider: 'openai', api_key: 'k', base_url: 'ftp://example.com/v1' }, /base_url/],
      [{ provider: 'openai', api_key: 'k', base_url: 'not a url' }, /base_url/],
      [{ provider: 'openai', api_key: 'k', base_url: 'http://example.com/v1?api-version=1' }, /base_url/],
      [{ provider: 'openai', api_key: 'k', base_url: 'http://example.com/v1#x' }, /base_url/],
      [{ provider: 'openai', api_key: 'k', base_url: `http://example.com/${'a'.repeat(3000)}` }, /base_url/],
      [{ provider: 'openai', api_key: 'k', base_url: 'http://user:pw@example.com/v1' }, /base_url/],
      [{ provider: 'openai', api_key: 'k', model: '' }, /model/],
      [{ provider: 'openai', api_key: 'k', model: '   ' }, /model/],
      [{ provider: 'openai', api_key: 'k', model: 'm'.repeat(201) }, /model/],
      [{ provider: 'openai', api_key: 'k', model: 'a\nb' }, /model/],
      [{ provider: 'openai', api_key: 'k', model: 7 }, /model/],
      [{ provider: 'openai', api_key: 'k', temperature: 1 }, /temperature/],
      [[], /body/i],
    ];
    for (const [payload, message] of cases) {
      const res = await put(payload);
      assert.match(
        assertError(res, 400, 'InputException', JSON.stringify(payload).slice(0, 80)).message,
        message,
        JSON.stringify(payload).slice(0, 80),
      );
    }
    assert.deepEqual(await row(), before);
  });

  it('answers 401 without credentials and 403 without ai:manage, changing nothing', async () => {
    const before = await row();
    for (const method of ['GET', 'PUT', 'DELETE'] as const) {
      const payload = method === 'PUT' ? { payload: { provider: 'openai', api_key: 'sk-stolen' } } : {};
      assertError(await t.call({ method, url: '/api/v1/ai/provider', as: null, ...payload }), 401, 'UnauthorizedException', method);
      const denied = assertError(
        await t.call({ method, url: '/api/v1/ai/provider', as: agent, ...payload }),
        403,
        'PermissionException',
        method,
      );
      assert.match(denied.message, /ai:manage/);
    }
    assert.deepEqual(await row(), before);
  });

  it('never answers the key, whatever the route', async () => {
    const res = await t.call({ method: 'GET', url: '/api/v1/ai/provider' });
    assert.ok(!res.body.includes('sk-secret'));
    assert.ok(!res.body.includes('enc:v1:'));
  });

  it('removes the provider with DELETE; a second DELETE is a 404', async () => {
    assert.equal(dataOf(await t.call({ method: 'DELETE', url: '/api/v1/ai/provider' })), true);
    assert.equal(await get(), null);
    assert.equal(await row(), undefined);
    assert.deepEqual(dataOf(await status(agent)), { enabled: false });
    assertError(await t.call({ method: 'DELETE', url: '/api/v1/ai/provider' }), 404, 'NotFoundException');
  });
});

describe('AI prompts', () => {
  let t: TestApp;
  let agent: Caller;
  before(async () => {
    t = await buildTestApp();
    agent = await t.makeAgent();
  });
  after(() => t.close());

  const list = async (as?: Caller) => dataOf<Prompt[]>(await t.call({ method: 'GET', url: '/api/v1/ai/prompts', ...(as ? { as } : {}) }));
  const rows = () => t.deps.db.selectFrom('ai_prompts').selectAll().orderBy('id').execute();

  it('lists the six built-in prompts by title to any agent', async () => {
    const prompts = await list(agent);
    assert.deepEqual(prompts.map((p) => p.key).sort(), BUILT_IN);
    const titles = prompts.map((p) => p.title);
    assert.deepEqual(
      titles,
      [...titles].sort((a, b) => a.toLowerCase().localeCompare(b.toLowerCase())),
    );
    for (const prompt of prompts) {
      assert.deepEqual(Object.keys(prompt).sort(), ['content', 'created_at', 'id', 'key', 'title', 'updated_at']);
      assert.ok(prompt.content.length > 10);
    }
    assertError(await t.call({ method: 'GET', url: '/api/v1/ai/prompts', as: null }), 401, 'UnauthorizedException');
  });

  it("edits a prompt's text, keeping its title when left out", async () => {
    const before = (await list()).find((p) => p.key === 'make_friendly');
    const edited = dataOf<Prompt>(
      await t.call({ method: 'PUT', url: '/api/v1/ai/prompts/make_friendly', payload: { content: '  Make it warm.\r\nKeep it short. ' } }),
    );
    assert.equal(edited.content, 'Make it warm.\nKeep it short.');
    assert.equal(edited.title, before?.title);
    assert.equal(edited.id, before?.id);
    const retitled = dataOf<Prompt>(
      await t.call({
        method: 'PUT',
        url: '/api/v1/ai/prompts/make_friendly',
        payload: { title: ' Friendlier ', content: 'Make it warm.' },
      }),
    );
    assert.equal(retitled.title, 'Friendlier');
    assert.equal((await list()).find((p) => p.key === 'make_friendly')?.content, 'Make it warm.');
  });

  it('refuses bad edits with 400 (404 for an unknown or malformed key) and changes nothing', async () => {
    const before = await rows();
    const cases: Array<[string, unknown, number]> = [
      ['make_concise', {}, 400],
      ['make_concise', { content: '' }, 400],
      ['make_concise', { content: '   \n ' }, 400],
      ['make_concise', { content: 'x'.repeat(4001) }, 400],
      ['make_concise', { content: 42 }, 400],
      ['make_concise', { content: 'ok\u0000' }, 400],
      ['make_concise', { content: 'ok', title: '' }, 400],
      ['make_concise', { content: 'ok', title: 'two\nlines' }, 400],
      ['make_concise', { content: 'ok', title: 't'.repeat(101) }, 400],
      ['make_concise', { content: 'ok', model: 'other' }, 400],
      ['no_such_prompt', { content: 'ok' }, 404],
      ['Bad-Key', { content: 'ok' }, 404],
      ['k'.repeat(65), { content: 'ok' }, 404],
    ];
    for (const [key, payload, status] of cases) {
      const res = await t.call({ method: 'PUT', url: `/api/v1/ai/prompts/${key}`, payload: payload as Record<string, unknown> });
      assertError(res, status, status === 400 ? 'InputException' : 'NotFoundException', `${key} ${JSON.stringify(payload).slice(0, 60)}`);
    }
    assert.deepEqual(await rows(), before);
  });

  it('answers 403 to an agent without ai:manage, changing nothing', async () => {
    const before = await rows();
    const edit = await t.call({ method: 'PUT', url: '/api/v1/ai/prompts/make_concise', payload: { content: 'Hijacked.' }, as: agent });
    assert.match(assertError(edit, 403, 'PermissionException').message, /ai:manage/);
    const create = await t.call({
      method: 'POST',
      url: '/api/v1/ai/prompts',
      payload: { key: 'mine', title: 'Mine', content: 'x' },
      as: agent,
    });
    assertError(create, 403, 'PermissionException');
    assertError(await t.call({ method: 'DELETE', url: '/api/v1/ai/prompts/make_concise', as: agent }), 403, 'PermissionException');
    assertError(
      await t.call({ method: 'PUT', url: '/api/v1/ai/prompts/make_concise', payload: { content: 'x' }, as: null }),
      401,
      'UnauthorizedException',
    );
    assert.deepEqual(await rows(), before);
  });

  it('adds and deletes custom prompts; the built-in ones cannot be deleted', async () => {
    const created = dataOf<Prompt>(
      await t.call({
        method: 'POST',
        url: '/api/v1/ai/prompts',
        payload: { key: 'translate_en', title: 'Translate to English', content: 'Translate the reply into English.' },
      }),
    );
    assert.equal(created.key, 'translate_en');
    assert.ok((await list(agent)).some((p) => p.key === 'translate_en'));
    const duplicate = await t.call({
      method: 'POST',
      url: '/api/v1/ai/prompts',
      payload: { key: 'translate_en', title: 'Again', content: 'x' },
    });
    assertError(duplicate, 409, 'ConflictException');
    for (const payload of [
      { key: 'Bad Key', title: 'x', content: 'x' },
      { key: '', title: 'x', content: 'x' },
      { key: 'k'.repeat(65), title: 'x', content: 'x' },
      { key: 'ok_key', title: 'x' },
      { key: 'ok_key', content: 'x' },
      { key: 'ok_key', title: '  ', content: 'x' },
    ]) {
      assertError(await t.call({ method: 'POST', url: '/api/v1/ai/prompts', payload }), 400, 'InputException', JSON.stringify(payload));
    }
    assert.equal((await list()).length, 7);
    const builtIn = await t.call({ method: 'DELETE', url: '/api/v1/ai/prompts/make_concise' });
    assert.match(assertError(builtIn, 422, 'DataException').message, /built in/);
    assert.equal(dataOf(await t.call({ method: 'DELETE', url: '/api/v1/ai/prompts/translate_en' })), true);
    assertError(await t.call({ method: 'DELETE', url: '/api/v1/ai/prompts/translate_en' }), 404, 'NotFoundException');
    assert.deepEqual((await list()).map((p) => p.key).sort(), BUILT_IN);
  });
});
