// Single sign-on providers' administration: the record, masking, the spec's envelope on
// GET one, validation refusals that change nothing, access, the public list, and the
// discovery check against a real OpenID provider on loopback.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { assertError, buildTestApp, type Caller, dataOf, type TestApp } from '../../test/helpers.ts';
import { agentWith } from '../../test/factories.ts';
import { type SsoProvider, startOidcProvider, type TestIdp, unreachableUrl } from '../../test/oidc-provider.ts';
import { decryptSecret, isEncrypted, SECRET_MASK } from '../security/encryption.ts';
import { isPrivateHost } from './oidc.service.ts';

const RECORD_FIELDS = [
  'auto_provision',
  'client_id',
  'client_secret',
  'configured_by',
  'created_at',
  'enabled',
  'id',
  'logo_url',
  'name',
  'provider',
  'provider_url',
  'provision_role_id',
  'redirect_uri',
  'updated_at',
];

let n = 0;
function body(overrides: Record<string, unknown> = {}) {
  n += 1;
  return {
    name: `Keycloak ${process.pid}-${n}`,
    provider: 'Keycloak',
    provider_url: 'https://sso.example.com/realms/support',
    client_id: 'parley',
    client_secret: 'first-secret-value',
    ...overrides,
  };
}

describe('single sign-on providers: administration', () => {
  let t: TestApp;
  let agent: Caller;
  let idp: TestIdp;

  before(async () => {
    t = await buildTestApp();
    agent = await t.makeAgent({ roles: ['Agent'] });
    idp = await startOidcProvider();
  });
  after(async () => {
    await t.close();
    await idp.close();
  });

  const create = async (overrides: Record<string, unknown> = {}) =>
    dataOf<SsoProvider>(await t.call({ method: 'POST', url: '/api/v1/oidc', payload: body(overrides) }));
  const storedSecret = async (id: number) =>
    (await t.deps.db.selectFrom('oidc_providers').where('id', '=', id).select('client_secret').executeTakeFirstOrThrow()).client_secret;
  const rows = async () => t.deps.db.selectFrom('oidc_providers').selectAll().orderBy('id').execute();

  it('creates a provider: the record, the mask, the redirect URI, the defaults; the secret stored encrypted', async () => {
    const created = await create({ name: '  Company SSO  ' });
    assert.deepEqual(Object.keys(created).sort(), RECORD_FIELDS);
    assert.equal(created.name, 'Company SSO');
    assert.equal(created.client_secret, SECRET_MASK);
    assert.equal(created.redirect_uri, `http://localhost:9000/api/v1/oidc/${created.id}/finish`);
    assert.equal(created.enabled, true);
    assert.equal(created.auto_provision, false);
    assert.equal(created.provision_role_id, null);
    assert.equal(created.logo_url, '');
    assert.equal(created.configured_by?.id, t.admin.id);
    assert.equal(created.configured_by?.enabled, true);
    const stored = await storedSecret(created.id);
    assert.ok(isEncrypted(stored));
    assert.equal(decryptSecret(t.deps.config.secretKey, stored), 'first-secret-value');
  });

  it('GET one answers the spec envelope exactly: {success: true, data}; errors keep the usual envelope', async () => {
    const created = await create();
    const res = await t.call({ method: 'GET', url: `/api/v1/oidc/${created.id}` });
    assert.equal(res.statusCode, 200);
    const answer = res.json() as Record<string, unknown>;
    assert.deepEqual(Object.keys(answer).sort(), ['data', 'success']);
    assert.equal(answer['success'], true);
    assert.deepEqual(answer['data'], created);
    assert.equal(res.body.includes('first-secret-value'), false);
    assertError(await t.call({ method: 'GET', url: '/api/v1/oidc/999999' }), 404, 'NotFoundException');
    assertError(await t.call({ method: 'GET', url: '/api/v1/oidc/abc' }), 404, 'NotFoundException');
    assertError(await t.call({ method: 'GET', url: '/api/v1/oidc/0x1' }), 404, 'NotFoundException');
  });

  it('the OpenAPI document shows that envelope for GET one', async () => {
    const doc = (await t.call({ method: 'GET', url: '/api/v1/openapi.json', as: null })).json() as {
      paths: Record<string, Record<string, { responses: Record<string, unknown> }>>;
    };
    const ok = doc.paths['/api/v1/oidc/{id}']?.['get']?.responses['200'] as { content: { 'application/json': { schema: unknown } } };
    const schema = ok.content['application/json'].schema as { properties: Record<string, unknown>; required: string[] };
    assert.deepEqual(Object.keys(schema.properties).sort(), ['data', 'success']);
    assert.deepEqual(schema.properties['success'], { type: 'boolean', enum: [true] });
    assert.deepEqual([...schema.required].sort(), ['data', 'success']);
  });

  it('lists providers, every secret masked', async () => {
    await create();
    const res = await t.call({ method: 'GET', url: '/api/v1/oidc' });
    const list = dataOf<SsoProvider[]>(res);
    assert.ok(list.length >= 1);
    for (const item of list) {
      assert.deepEqual(Object.keys(item).sort(), RECORD_FIELDS);
      assert.equal(item.client_secret, SECRET_MASK);
    }
    assert.equal(res.body.includes('first-secret-value'), false);
    assert.equal(res.body.includes('enc:v1:'), false);
  });

  it('PUT replaces the object; the mask or no secret keeps the stored one, a new one replaces it', async () => {
    const created = await create({ enabled: false, logo_url: 'https://cdn.example.com/logo.svg' });
    const before = await storedSecret(created.id);
    const put = (payload: Record<string, unknown>) => t.call({ method: 'PUT', url: `/api/v1/oidc/${created.id}`, payload });

    const masked = dataOf<SsoProvider>(await put({ ...body({ name: created.name }), client_secret: SECRET_MASK, client_id: 'renamed' }));
    assert.equal(masked.client_id, 'renamed');
    assert.equal(masked.client_secret, SECRET_MASK);
    // A full object: what was left out takes its default again.
    assert.equal(masked.enabled, true);
    assert.equal(masked.logo_url, '');
    assert.equal(await storedSecret(created.id), before);

    const { client_secret: _left, ...withoutSecret } = body({ name: created.name });
    dataOf(await put(withoutSecret));
    assert.equal(await storedSecret(created.id), before);

    // A kept secret never goes to another issuer: a new provider_url needs the secret again.
    const movedUrl = 'https://other.example.net/realms/support';
    for (const kept of [{ client_secret: SECRET_MASK }, {}]) {
      const { client_secret: _dropped, ...rest } = body({ name: created.name, provider_url: movedUrl });
      const res = await put({ ...rest, ...kept });
      assert.match(assertError(res, 400, 'InputException').message, /client_secret: must be sent again when provider_url changes/);
    }
    const unchanged = (await t.call({ method: 'GET', url: `/api/v1/oidc/${created.id}` })).json() as { data: SsoProvider };
    assert.equal(unchanged.data.provider_url, 'https://sso.example.com/realms/support');

    dataOf(await put(body({ name: created.name, client_secret: 'second-secret-value', provider_url: movedUrl })));
    assert.equal(decryptSecret(t.deps.config.secretKey, await storedSecret(created.id)), 'second-secret-value');

    assertError(await t.call({ method: 'PUT', url: '/api/v1/oidc/999999', payload: body() }), 404, 'NotFoundException');
  });

  it('refuses invalid bodies with a 400 naming the field, and changes nothing', async () => {
    const existing = await create();
    const snapshot = await rows();
    const cases: Array<[string, Record<string, unknown>, string]> = [
      ['no name', { name: undefined }, 'name'],
      ['a blank name', { name: '   ' }, 'name'],
      ['a name of 101 characters', { name: 'x'.repeat(101) }, 'name'],
      ['a huge name', { name: 'x'.repeat(100_000) }, 'name'],
      ['a name that is a number', { name: 42 }, 'name'],
      ['a NUL in the name', { name: 'Key\u0000cloak' }, 'name'],
      ['no provider_url', { provider_url: undefined }, 'provider_url'],
      ['a provider_url that is not a URL', { provider_url: 'sso.example.com' }, 'provider_url'],
      ['an ftp provider_url', { provider_url: 'ftp://sso.example.com' }, 'provider_url'],
      ['an http provider_url on a public host', { provider_url: 'http://sso.example.com/realms/x' }, 'provider_url'],
      ['an http provider_url on a public address', { provider_url: 'http://8.8.8.8' }, 'provider_url'],
      ['a provider_url with a query', { provider_url: 'https://sso.example.com/?realm=x' }, 'provider_url'],
      ['a provider_url with credentials', { provider_url: 'https://user:pw@sso.example.com' }, 'provider_url'],
      ['no client_id', { client_id: undefined }, 'client_id'],
      ['an empty client_id', { client_id: '' }, 'client_id'],
      ['a client_id of 501 characters', { client_id: 'x'.repeat(501) }, 'client_id'],
      ['no client_secret on creation', { client_secret: undefined }, 'client_secret'],
      ['the mask as a new secret', { client_secret: SECRET_MASK }, 'client_secret'],
      ['an empty client_secret', { client_secret: '' }, 'client_secret'],
      ['a client_secret of 501 characters', { client_secret: 'x'.repeat(501) }, 'client_secret'],
      ['a logo_url that is not http(s)', { logo_url: 'javascript:alert(1)' }, 'logo_url'],
      ['auto_provision without a role', { auto_provision: true }, 'provision_role_id'],
      ['auto_provision with a null role', { auto_provision: true, provision_role_id: null }, 'provision_role_id'],
      ['an unknown role', { provision_role_id: 999999 }, 'provision_role_id'],
      ['a role id as a string', { provision_role_id: '1' }, 'provision_role_id'],
      ['enabled as a string', { enabled: 'true' }, 'enabled'],
      ['an unknown property', { issuer: 'https://x.example.com' }, 'issuer'],
    ];
    for (const [label, overrides, field] of cases) {
      const payload: Record<string, unknown> = body(overrides);
      for (const key of Object.keys(overrides)) if (overrides[key] === undefined) delete payload[key];
      const refused = assertError(await t.call({ method: 'POST', url: '/api/v1/oidc', payload }), 400, 'InputException', label);
      assert.match(refused.message, new RegExp(field), label);
      // The same refusals on update, but for the secret: left out or masked, it keeps the stored one there.
      if (label === 'no client_secret on creation' || label === 'the mask as a new secret') continue;
      const updated: Record<string, unknown> = { ...payload, name: existing.name };
      if (label.includes('name')) updated['name'] = payload['name'];
      const again = await t.call({ method: 'PUT', url: `/api/v1/oidc/${existing.id}`, payload: updated });
      assertError(again, 400, 'InputException', `${label} (update)`);
    }
    assert.deepEqual(await rows(), snapshot);
  });

  it('accepts http for loopback and private-network issuers only', async () => {
    for (const host of [
      '127.0.0.1',
      'localhost',
      '10.1.2.3',
      '172.20.0.5',
      '192.168.1.10',
      '[::1]',
      '[fd00::5]',
      'keycloak',
      'kc.lan',
      'sso.internal',
    ]) {
      const created = await create({ provider_url: `http://${host}:8080/realms/support` });
      assert.equal(created.provider_url, `http://${host}:8080/realms/support`);
    }
    for (const host of ['8.8.8.8', 'sso.example.com', '172.32.0.1', '[2001:db8::1]', '192.169.0.1'])
      assert.equal(isPrivateHost(host), false, host);
    assert.equal(isPrivateHost('::ffff:10.0.0.1'), true);
    // https is accepted anywhere, an issuer with a path and a trailing slash included (Authentik's).
    assert.equal(
      (await create({ provider_url: 'https://auth.example.com/application/o/parley/' })).provider_url,
      'https://auth.example.com/application/o/parley/',
    );
  });

  it('refuses a name taken, case-insensitively (409), on create and on rename, and changes nothing', async () => {
    const first = await create({ name: 'Google Workspace' });
    const second = await create();
    const snapshot = await rows();
    assertError(
      await t.call({ method: 'POST', url: '/api/v1/oidc', payload: body({ name: ' google workspace ' }) }),
      409,
      'ConflictException',
    );
    assertError(
      await t.call({ method: 'PUT', url: `/api/v1/oidc/${second.id}`, payload: body({ name: 'GOOGLE WORKSPACE' }) }),
      409,
      'ConflictException',
    );
    assert.deepEqual(await rows(), snapshot);
    // Renaming a provider to its own name in another case is no conflict.
    assert.equal(
      dataOf<SsoProvider>(await t.call({ method: 'PUT', url: `/api/v1/oidc/${first.id}`, payload: body({ name: 'GOOGLE workspace' }) }))
        .name,
      'GOOGLE workspace',
    );
  });

  it('auto-provisioning: an existing role is kept; a role the caller could not grant is refused (403)', async () => {
    const roles = dataOf<Array<{ id: number; name: string }>>(await t.call({ method: 'GET', url: '/api/v1/roles' }));
    const agentRole = roles.find((r) => r.name === 'Agent')!;
    const adminRole = roles.find((r) => r.name === 'Admin')!;
    const created = await create({ auto_provision: true, provision_role_id: agentRole.id });
    assert.equal(created.auto_provision, true);
    assert.equal(created.provision_role_id, agentRole.id);
    // Someone who manages providers but does not hold the Admin role's permissions cannot hand it out.
    const manager = await agentWith(t, ['oidc:manage']);
    const snapshot = await rows();
    assertError(
      await t.call({
        method: 'POST',
        url: '/api/v1/oidc',
        payload: body({ auto_provision: true, provision_role_id: adminRole.id }),
        as: manager,
      }),
      403,
      'PermissionException',
    );
    assert.deepEqual(await rows(), snapshot);
    const own = dataOf<SsoProvider>(await t.call({ method: 'POST', url: '/api/v1/oidc', payload: body(), as: manager }));
    assert.equal(own.client_secret, SECRET_MASK);
  });

  it('deletes a provider (true); then it is gone (404)', async () => {
    const created = await create();
    assert.equal(dataOf(await t.call({ method: 'DELETE', url: `/api/v1/oidc/${created.id}` })), true);
    assertError(await t.call({ method: 'GET', url: `/api/v1/oidc/${created.id}` }), 404, 'NotFoundException');
    assertError(await t.call({ method: 'DELETE', url: `/api/v1/oidc/${created.id}` }), 404, 'NotFoundException');
    assertError(await t.call({ method: 'PUT', url: `/api/v1/oidc/${created.id}`, payload: body() }), 404, 'NotFoundException');
  });

  it('needs credentials (401) and oidc:manage (403 for an agent), and a refusal changes nothing', async () => {
    const created = await create();
    const snapshot = await rows();
    const routes: Array<[string, string, unknown?]> = [
      ['GET', '/api/v1/oidc'],
      ['POST', '/api/v1/oidc', body()],
      ['GET', `/api/v1/oidc/${created.id}`],
      ['PUT', `/api/v1/oidc/${created.id}`, body()],
      ['DELETE', `/api/v1/oidc/${created.id}`],
      ['POST', `/api/v1/oidc/${created.id}/test`],
    ];
    for (const [method, url, payload] of routes) {
      const options = { method: method as 'GET', url, ...(payload ? { payload } : {}) };
      assertError(await t.call({ ...options, as: null }), 401, 'UnauthorizedException', `${method} ${url}`);
      const refused = assertError(await t.call({ ...options, as: agent }), 403, 'PermissionException', `${method} ${url}`);
      assert.match(refused.message, /oidc:manage/);
      const wrong = { authorization: 'token nope:nope' };
      assertError(await t.call({ ...options, as: null, headers: wrong }), 401, 'UnauthorizedException', `${method} ${url}`);
    }
    assert.deepEqual(await rows(), snapshot);
  });

  it('the public list: enabled providers only, no credentials needed, nothing secret', async () => {
    const shown = await create({ name: `Shown ${n}`, logo_url: 'https://cdn.example.com/g.svg', provider: 'Google' });
    const hidden = await create({ name: `Hidden ${n}`, enabled: false });
    const res = await t.call({ method: 'GET', url: '/api/v1/oidc/enabled', as: null });
    const list = dataOf<Array<Record<string, unknown>>>(res);
    const ids = list.map((item) => item['id']);
    assert.ok(ids.includes(shown.id));
    assert.ok(!ids.includes(hidden.id));
    for (const item of list) assert.deepEqual(Object.keys(item).sort(), ['id', 'login_url', 'logo_url', 'name', 'provider']);
    assert.deepEqual(
      list.find((item) => item['id'] === shown.id),
      {
        id: shown.id,
        name: shown.name,
        provider: 'Google',
        logo_url: 'https://cdn.example.com/g.svg',
        login_url: `http://localhost:9000/api/v1/oidc/${shown.id}/login`,
      },
    );
    assert.equal(/secret|client_id|enc:v1|first-secret/.test(res.body), false);
    // A static segment: never read as a provider id.
    assertError(await t.call({ method: 'GET', url: '/api/v1/oidc/enabled?x=1', as: null }), 400, 'InputException');
  });

  it('POST /oidc/{id}/test runs discovery and reports the endpoints; an unreachable provider is a 502', async () => {
    const live = await create({ provider_url: idp.issuer });
    const report = dataOf<Record<string, unknown>>(await t.call({ method: 'POST', url: `/api/v1/oidc/${live.id}/test` }));
    assert.equal(report['issuer'], idp.issuer);
    assert.equal(report['authorization_endpoint'], `${idp.issuer}/auth`);
    assert.equal(report['token_endpoint'], `${idp.issuer}/token`);
    assert.equal(report['userinfo_endpoint'], `${idp.issuer}/me`);
    assert.equal(report['token_endpoint_auth_method'], 'client_secret_basic');
    assert.ok((report['code_challenge_methods_supported'] as string[]).includes('S256'));

    const down = await create({ provider_url: await unreachableUrl() });
    const failed = assertError(await t.call({ method: 'POST', url: `/api/v1/oidc/${down.id}/test` }), 502, 'NetworkException');
    assert.match(failed.message, /could not be reached/);
    // Not an OpenID provider at all: its discovery is broken.
    const wrong = await create({ provider_url: `${idp.issuer}/not-an-issuer` });
    assertError(await t.call({ method: 'POST', url: `/api/v1/oidc/${wrong.id}/test` }), 502, 'NetworkException');
    assertError(await t.call({ method: 'POST', url: '/api/v1/oidc/999999/test' }), 404, 'NotFoundException');
  });
});
