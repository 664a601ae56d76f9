import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { assertError as fails, buildTestApp, type Caller, fakeClock, type TestApp, dataOf as ok } from '../../test/helpers.ts';
import { DecryptionError, decryptSecret, encryptSecret, isEncrypted, SECRET_MASK } from '../security/encryption.ts';
import { DEFAULT_ALLOWED_EXTENSIONS } from './inboxes.schema.ts';
import { getInboxByUuid } from './inboxes.service.ts';
import { frameAncestors } from '../widget/widget.assets.ts';

type Json = Record<string, unknown>;
type Res = { statusCode: number; body: string; json: () => unknown };

const INBOX_KEYS = [
  'assign_on_first_reply',
  'channel',
  'config',
  'created_at',
  'csat_enabled',
  'default_team_id',
  'enabled',
  'from',
  'id',
  'name',
  'updated_at',
  'uuid',
];
const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const IMAP_PASSWORD = 'imap-plain-password-1';
const SMTP_PASSWORD = 'smtp-plain-password-1';

function text(value: unknown): string {
  assert.equal(typeof value, 'string');
  return value as string;
}

function emailConfig(overrides: { imap?: Json; smtp?: Json } = {}): Json {
  return {
    imap: { host: 'imap.example.com', port: 993, username: 'support@example.com', password: IMAP_PASSWORD, tls: 'tls', ...overrides.imap },
    smtp: {
      host: 'smtp.example.com',
      port: 587,
      username: 'support@example.com',
      password: SMTP_PASSWORD,
      tls: 'starttls',
      ...overrides.smtp,
    },
  };
}

function emailBody(overrides: Json = {}): Json {
  return { name: 'Support mail', channel: 'email', from: 'Support <support@example.com>', config: emailConfig(), ...overrides };
}

function livechatBody(config: Json = {}, overrides: Json = {}): Json {
  return { name: 'Website chat', channel: 'livechat', config, ...overrides };
}

describe('secret encryption', () => {
  const key = Buffer.from('unit-test-secret-key-0123456789abcdefghij');
  const otherKey = Buffer.from('another-secret-key-0123456789abcdefghijkl');

  for (const plaintext of ['', 'a', 'hunter2', 'pässwörd ✓ 密码', 'x'.repeat(5000), SECRET_MASK, 'enc:v1:looks:like:one']) {
    it(`round-trips ${JSON.stringify(plaintext.slice(0, 24))} (${plaintext.length} chars)`, () => {
      const stored = encryptSecret(key, plaintext);
      assert.match(stored, /^enc:v1:[A-Za-z0-9_-]{16}:[A-Za-z0-9_-]{22}:[A-Za-z0-9_-]*$/);
      assert.ok(isEncrypted(stored));
      if (plaintext.length > 3) assert.ok(!stored.includes(plaintext));
      assert.equal(decryptSecret(key, stored), plaintext);
    });
  }

  it('uses a fresh IV: the same plaintext never encrypts twice the same', () => {
    const a = encryptSecret(key, 'same');
    const b = encryptSecret(key, 'same');
    assert.notEqual(a, b);
    assert.equal(decryptSecret(key, a), decryptSecret(key, b));
  });

  const good = encryptSecret(key, 'secret value');
  const [, , iv, tag, data] = good.split(':') as [string, string, string, string, string];
  const flip = (text: string) => `${text.slice(0, -2)}${text.at(-2) === 'A' ? 'B' : 'A'}${text.at(-1)}`;
  const refused: Array<[string, string, Buffer]> = [
    ['another key', good, otherKey],
    ['an altered ciphertext', `enc:v1:${iv}:${tag}:${flip(data)}`, key],
    ['an altered tag', `enc:v1:${iv}:${flip(tag)}:${data}`, key],
    ['an altered IV', `enc:v1:${flip(iv)}:${tag}:${data}`, key],
    ['a plain string', 'secret value', key],
    ['a missing part', `enc:v1:${iv}:${data}`, key],
    ['a short IV', `enc:v1:AAAA:${tag}:${data}`, key],
    ['another version', good.replace('enc:v1:', 'enc:v2:'), key],
  ];
  for (const [label, stored, withKey] of refused) {
    it(`refuses to decrypt ${label}`, () => {
      assert.throws(() => decryptSecret(withKey, stored), DecryptionError);
    });
  }

  it('recognises only its own format', () => {
    for (const value of ['', 'hunter2', SECRET_MASK, 42, null, undefined, 'enc:v2:a:b:c'])
      assert.equal(isEncrypted(value), false, String(value));
  });
});

describe('inboxes', () => {
  let t: TestApp;
  let agent: Caller;
  const clock = fakeClock();
  before(async () => {
    t = await buildTestApp({ clock });
    agent = await t.makeAgent();
  });
  after(() => t.close());

  const create = (payload: unknown, as?: Caller | null) =>
    t.call({ method: 'POST', url: '/api/v1/inboxes', payload: payload as Json, ...(as !== undefined ? { as } : {}) });
  const get = (id: unknown, as?: Caller | null) =>
    t.call({ method: 'GET', url: `/api/v1/inboxes/${id}`, ...(as !== undefined ? { as } : {}) });
  const put = (id: unknown, payload: unknown, as?: Caller | null) =>
    t.call({ method: 'PUT', url: `/api/v1/inboxes/${id}`, payload: payload as Json, ...(as !== undefined ? { as } : {}) });
  const toggle = (id: unknown, payload: unknown, as?: Caller | null) =>
    t.call({ method: 'PUT', url: `/api/v1/inboxes/${id}/toggle`, payload: payload as Json, ...(as !== undefined ? { as } : {}) });
  const remove = (id: unknown, as?: Caller | null) =>
    t.call({ method: 'DELETE', url: `/api/v1/inboxes/${id}`, ...(as !== undefined ? { as } : {}) });
  const list = () => t.call({ method: 'GET', url: '/api/v1/inboxes' });
  const compact = (as?: Caller) => t.call({ method: 'GET', url: '/api/v1/inboxes/compact', ...(as ? { as } : {}) });
  const storedConfig = async (id: number) =>
    (await t.deps.db.selectFrom('inboxes').where('id', '=', id).select('config').executeTakeFirstOrThrow()).config as {
      imap?: { password: string };
      smtp?: { password: string };
      secret?: string;
    };
  const revealed = async (uuid: string) => {
    const inbox = await getInboxByUuid(t.deps, uuid);
    assert.ok(inbox, 'getInboxByUuid found the inbox');
    return inbox.config as { imap?: { password: string }; smtp?: { password: string }; secret?: string };
  };
  /** No plaintext in the body, and the mask where each secret is. */
  const assertMasked = (res: Res, plaintexts: string[]) => {
    for (const plain of plaintexts) assert.ok(!res.body.includes(plain), `response leaks ${plain}: ${res.body}`);
    assert.ok(res.body.includes(SECRET_MASK), 'response shows the mask');
  };

  describe('create', () => {
    it('creates an email inbox with 200, the spec record plus uuid, defaults filled and secrets masked', async () => {
      const res = await create(emailBody());
      const inbox = ok(res);
      assert.deepEqual(Object.keys(inbox).sort(), INBOX_KEYS);
      assert.equal(typeof inbox['id'], 'number');
      assert.match(String(inbox['uuid']), UUID);
      assert.equal(inbox['name'], 'Support mail');
      assert.equal(inbox['channel'], 'email');
      assert.equal(inbox['enabled'], true);
      assert.equal(inbox['csat_enabled'], false);
      assert.equal(inbox['from'], 'Support <support@example.com>');
      assert.match(String(inbox['created_at']), ISO);
      assert.match(String(inbox['updated_at']), ISO);
      assert.deepEqual(inbox['config'], {
        imap: {
          host: 'imap.example.com',
          port: 993,
          username: 'support@example.com',
          password: SECRET_MASK,
          tls: 'tls',
          tls_skip_verify: false,
          mailbox: 'INBOX',
          poll_interval_seconds: 60,
          import_since_hours: 24,
        },
        smtp: {
          host: 'smtp.example.com',
          port: 587,
          username: 'support@example.com',
          password: SECRET_MASK,
          tls: 'starttls',
          tls_skip_verify: false,
        },
        plus_addressing: false,
        reopen_window_days: 30,
        signature: '',
      });
      assertMasked(res, [IMAP_PASSWORD, SMTP_PASSWORD]);
    });

    it('keeps given flags, trims the name, and accepts the optional email settings', async () => {
      const inbox = ok(
        await create(
          emailBody({
            name: '  Billing  ',
            enabled: false,
            csat_enabled: true,
            from: ' billing@example.com ',
            config: emailConfig({
              imap: { mailbox: 'Support', poll_interval_seconds: 300, tls: 'none' },
              smtp: { max_connections: 4, tls: 'tls', username: '', password: '' },
            }),
          }),
        ),
      );
      assert.equal(inbox['name'], 'Billing');
      assert.equal(inbox['enabled'], false);
      assert.equal(inbox['csat_enabled'], true);
      assert.equal(inbox['from'], 'billing@example.com');
      const config = inbox['config'] as { imap: Json; smtp: Json };
      assert.equal(config.imap['mailbox'], 'Support');
      assert.equal(config.imap['poll_interval_seconds'], 300);
      assert.equal(config.imap['tls'], 'none');
      assert.equal(config.smtp['max_connections'], 4);
      // No password set: nothing to mask, and nothing is pretended.
      assert.equal(config.smtp['password'], '');
    });

    it('creates a live-chat inbox with every default filled in and a generated secret', async () => {
      const res = await create(livechatBody());
      const inbox = ok(res);
      assert.deepEqual(Object.keys(inbox).sort(), INBOX_KEYS);
      assert.equal(inbox['channel'], 'livechat');
      assert.equal(inbox['from'], null);
      const config = inbox['config'] as Json;
      assert.equal(config['brand_name'], 'Support');
      assert.deepEqual(config['colors'], { primary: '#2563eb' });
      assert.deepEqual(config['launcher'], { position: 'right', spacing: { side: 20, bottom: 20 }, logo_url: '', color: '' });
      assert.equal(typeof config['greeting_message'], 'string');
      for (const who of ['users', 'visitors']) {
        assert.deepEqual(config[who], {
          allow_start_conversation: true,
          prevent_multiple_conversations: false,
          prevent_reply_to_closed_conversation: false,
          start_conversation_button_text: 'Start a conversation',
        });
      }
      const prechat = config['prechat_form'] as { enabled: boolean; fields: Array<{ key: string }> };
      assert.equal(prechat.enabled, false);
      assert.deepEqual(
        prechat.fields.map((f) => f.key),
        ['name', 'email', 'phone'],
      );
      assert.deepEqual(config['file_upload'], { enabled: true, max_size_mb: 10, allowed_extensions: DEFAULT_ALLOWED_EXTENSIONS });
      assert.deepEqual(config['trusted_domains'], []);
      assert.deepEqual(config['blocked_ips'], []);
      assert.equal(config['session_duration'], '30d');
      assert.equal(config['business_hours_id'], null);
      assert.equal(config['timezone'], t.deps.config.timezone);
      // The generated secret is shown once, in the creation answer; masked everywhere else.
      const secret = (await revealed(String(inbox['uuid']))).secret;
      assert.equal(typeof secret, 'string');
      assert.ok((secret as string).length >= 32);
      assert.equal(config['secret'], secret);
      const again = ok(await t.call({ method: 'GET', url: `/api/v1/inboxes/${String(inbox['id'])}` }));
      assert.equal((again['config'] as Json)['secret'], SECRET_MASK);
      const other = ok(await create(livechatBody({}, { name: 'Second chat' })));
      assert.notEqual((await revealed(String(other['uuid']))).secret, secret, 'each inbox gets its own random secret');
    });

    it('rotates a live-chat secret, shown once; an email inbox has none (422); unknown 404', async () => {
      const inbox = ok(await create(livechatBody({}, { name: 'Rotating chat' })));
      const before = (await revealed(String(inbox['uuid']))).secret;
      const rotated = ok(await t.call({ method: 'POST', url: `/api/v1/inboxes/${String(inbox['id'])}/secret/rotate` }));
      assert.deepEqual(Object.keys(rotated), ['secret', 'sessions_ended']);
      assert.ok(String(rotated['secret']).length >= 32);
      assert.notEqual(rotated['secret'], before);
      assert.equal((await revealed(String(inbox['uuid']))).secret, rotated['secret']);
      const shown = ok(await t.call({ method: 'GET', url: `/api/v1/inboxes/${String(inbox['id'])}` }));
      assert.equal((shown['config'] as Json)['secret'], SECRET_MASK);
      const email = ok(await create(emailBody({ name: 'Mail to rotate' })));
      fails(await t.call({ method: 'POST', url: `/api/v1/inboxes/${String(email['id'])}/secret/rotate` }), 422, 'DataException');
      fails(await t.call({ method: 'POST', url: '/api/v1/inboxes/999999/secret/rotate' }), 404, 'NotFoundException');
    });

    it('keeps the live-chat settings it is given, normalised', async () => {
      const secret = 'a-very-long-jwt-secret-of-more-than-32-characters';
      const inbox = ok(
        await create(
          livechatBody({
            brand_name: 'Acme',
            colors: { primary: '#FF0000' },
            launcher: { position: 'left', spacing: { side: 0, bottom: 200 } },
            visitors: { allow_start_conversation: false },
            prechat_form: { enabled: true, fields: [{ key: 'company', type: 'text', label: 'Company' }] },
            file_upload: { enabled: false, max_size_mb: 2.5, allowed_extensions: ['.PDF', 'pdf', 'png'] },
            trusted_domains: ['Example.com', '*.example.org', 'localhost:3000', '[::1]:8080'],
            blocked_ips: ['10.0.0.1', '192.168.0.0/16', '2001:db8::/32'],
            session_duration: '12h',
            timezone: 'Europe/Paris',
            secret,
          }),
        ),
      );
      const config = inbox['config'] as Json;
      assert.equal(config['brand_name'], 'Acme');
      assert.deepEqual(config['colors'], { primary: '#FF0000' });
      assert.deepEqual((config['launcher'] as Json)['spacing'], { side: 0, bottom: 200 });
      assert.equal((config['visitors'] as Json)['allow_start_conversation'], false);
      assert.equal((config['users'] as Json)['allow_start_conversation'], true);
      assert.deepEqual((config['prechat_form'] as { fields: Json[] }).fields, [
        {
          key: 'company',
          type: 'text',
          label: 'Company',
          placeholder: '',
          required: false,
          enabled: true,
          order: 0,
          is_default: false,
          custom_attribute_id: null,
        },
      ]);
      assert.deepEqual(config['file_upload'], { enabled: false, max_size_mb: 2.5, allowed_extensions: ['pdf', 'png'] });
      assert.deepEqual(config['trusted_domains'], ['example.com', '*.example.org', 'localhost:3000', '[::1]:8080']);
      // Every accepted entry reaches the frame's CSP: none is silently dropped there.
      assert.equal(
        frameAncestors(config['trusted_domains'] as string[]),
        "frame-ancestors 'self' http://example.com:* https://example.com:* http://*.example.org:* https://*.example.org:* " +
          'http://localhost:3000 https://localhost:3000 http://[::1]:8080 https://[::1]:8080',
      );
      assert.deepEqual(config['blocked_ips'], ['10.0.0.1', '192.168.0.0/16', '2001:db8::/32']);
      assert.equal(config['session_duration'], '12h');
      assert.equal(config['timezone'], 'Europe/Paris');
      assert.equal(config['secret'], secret, 'the creation answer shows the given secret once');
      assert.equal((await revealed(String(inbox['uuid']))).secret, secret);
    });

    const invalid: Array<[string, unknown, string]> = [
      ['no body fields', {}, 'name'],
      ['an array body', [], 'body'],
      ['a missing name', { channel: 'livechat', config: {} }, 'name'],
      ['an empty name', livechatBody({}, { name: '' }), 'name'],
      ['a blank name', livechatBody({}, { name: '   ' }), 'name'],
      ['a numeric name', livechatBody({}, { name: 42 }), 'name'],
      ['a null name', livechatBody({}, { name: null }), 'name'],
      ['a long name', livechatBody({}, { name: 'x'.repeat(141) }), 'name'],
      ['a missing channel', { name: 'X', config: {} }, 'channel'],
      ['an unknown channel', livechatBody({}, { channel: 'sms' }), 'channel'],
      ['an upper-case channel', livechatBody({}, { channel: 'EMAIL' }), 'channel'],
      ['a string enabled', livechatBody({}, { enabled: 'yes' }), 'enabled'],
      ['a numeric csat_enabled', livechatBody({}, { csat_enabled: 1 }), 'csat_enabled'],
      ['a numeric from', livechatBody({}, { from: 5 }), 'from'],
      ['a missing config', { name: 'X', channel: 'livechat' }, 'config'],
      ['an array config', livechatBody([] as unknown as Json), 'config'],
      ['a string config', { name: 'X', channel: 'livechat', config: 'x' }, 'config'],
      ['an unknown property', livechatBody({}, { colour: 'red' }), 'colour'],
      ['a secret property at the top', livechatBody({}, { secret: 'x'.repeat(40) }), 'secret'],
      ['an email inbox without from', emailBody({ from: undefined }), 'from'],
      ['an email inbox with null from', emailBody({ from: null }), 'from'],
      ['an email inbox with a blank from', emailBody({ from: '  ' }), 'from'],
      ['a from that is not an address', emailBody({ from: 'support' }), 'from'],
      ['a from with a broken display form', emailBody({ from: 'Support <support>' }), 'from'],
      ['an email config without imap', emailBody({ config: { smtp: emailConfig()['smtp'] } }), 'config.imap'],
      ['an email config without smtp', emailBody({ config: { imap: emailConfig()['imap'] } }), 'config.smtp'],
      ['an empty email config', emailBody({ config: {} }), 'config.imap'],
      ['a live-chat config on an email inbox', emailBody({ config: { brand_name: 'x' } }), 'config'],
      ['an imap without host', emailBody({ config: emailConfig({ imap: { host: undefined } }) }), 'config.imap.host'],
      ['an empty imap host', emailBody({ config: emailConfig({ imap: { host: '' } }) }), 'config.imap.host'],
      ['an imap port 0', emailBody({ config: emailConfig({ imap: { port: 0 } }) }), 'config.imap.port'],
      ['an imap port 70000', emailBody({ config: emailConfig({ imap: { port: 70000 } }) }), 'config.imap.port'],
      ['an imap port as text', emailBody({ config: emailConfig({ imap: { port: '993' } }) }), 'config.imap.port'],
      ['an unknown imap tls', emailBody({ config: emailConfig({ imap: { tls: 'ssl' } }) }), 'config.imap.tls'],
      ['an imap without tls', emailBody({ config: emailConfig({ imap: { tls: undefined } }) }), 'config.imap.tls'],
      ['an unknown imap key', emailBody({ config: emailConfig({ imap: { skip_verify: true } }) }), 'config.imap.skip_verify'],
      ['a numeric imap password', emailBody({ config: emailConfig({ imap: { password: 1234 } }) }), 'config.imap.password'],
      [
        'a tiny poll interval',
        emailBody({ config: emailConfig({ imap: { poll_interval_seconds: 1 } }) }),
        'config.imap.poll_interval_seconds',
      ],
      ['an smtp without host', emailBody({ config: emailConfig({ smtp: { host: undefined } }) }), 'config.smtp.host'],
      ['an smtp host with a scheme', emailBody({ config: emailConfig({ smtp: { host: 'smtp://x' } }) }), 'config.smtp.host'],
      ['an smtp max_connections 0', emailBody({ config: emailConfig({ smtp: { max_connections: 0 } }) }), 'config.smtp.max_connections'],
      ['a masked password on create', emailBody({ config: emailConfig({ smtp: { password: SECRET_MASK } }) }), 'config.smtp.password'],
      ['an unknown live-chat key', livechatBody({ colour: 'red' }), 'config.colour'],
      ['a named primary colour', livechatBody({ colors: { primary: 'blue' } }), 'config.colors.primary'],
      ['a launcher position top', livechatBody({ launcher: { position: 'top' } }), 'config.launcher.position'],
      ['a launcher spacing 500', livechatBody({ launcher: { spacing: { side: 500 } } }), 'config.launcher.spacing.side'],
      ['a string permission', livechatBody({ users: { allow_start_conversation: 'yes' } }), 'config.users.allow_start_conversation'],
      ['an unknown permission', livechatBody({ visitors: { can_fly: true } }), 'config.visitors.can_fly'],
      [
        'a prechat field without label',
        livechatBody({ prechat_form: { fields: [{ key: 'a', type: 'text' }] } }),
        'config.prechat_form.fields.0.label',
      ],
      [
        'a prechat field of unknown type',
        livechatBody({ prechat_form: { fields: [{ key: 'a', type: 'color', label: 'A' }] } }),
        'config.prechat_form.fields.0.type',
      ],
      [
        'duplicate prechat keys',
        livechatBody({
          prechat_form: {
            fields: [
              { key: 'a', type: 'text', label: 'A' },
              { key: 'a', type: 'text', label: 'B' },
            ],
          },
        }),
        'config.prechat_form.fields.1.key',
      ],
      ['an upload size of 0', livechatBody({ file_upload: { max_size_mb: 0 } }), 'config.file_upload.max_size_mb'],
      ['an upload size as text', livechatBody({ file_upload: { max_size_mb: '10' } }), 'config.file_upload.max_size_mb'],
      ['a path as extension', livechatBody({ file_upload: { allowed_extensions: ['../x'] } }), 'config.file_upload.allowed_extensions.0'],
      ['a trusted domain with a scheme', livechatBody({ trusted_domains: ['https://example.com'] }), 'config.trusted_domains.0'],
      [
        'a trusted site as a URL',
        livechatBody({ trusted_domains: ['shop.example', 'https://shop.example.com'] }),
        'config.trusted_domains.1',
      ],
      ['a lone wildcard', livechatBody({ trusted_domains: ['*'] }), 'config.trusted_domains.0'],
      ['a CSP directive in a trusted domain', livechatBody({ trusted_domains: ['a; frame-ancestors *'] }), 'config.trusted_domains.0'],
      ['a trusted domain with a path', livechatBody({ trusted_domains: ['example.com', 'example.com/x'] }), 'config.trusted_domains.1'],
      ['a wildcard in the middle', livechatBody({ trusted_domains: ['a.*.example.com'] }), 'config.trusted_domains.0'],
      ['trusted domains as a string', livechatBody({ trusted_domains: 'example.com' }), 'config.trusted_domains'],
      ['a bad blocked IP', livechatBody({ blocked_ips: ['999.1.1.1'] }), 'config.blocked_ips.0'],
      ['a bad CIDR prefix', livechatBody({ blocked_ips: ['10.0.0.0/33'] }), 'config.blocked_ips.0'],
      ['a wordy session duration', livechatBody({ session_duration: '30 days' }), 'config.session_duration'],
      ['an unknown time zone', livechatBody({ timezone: 'Mars/Olympus' }), 'config.timezone'],
      ['an offset as time zone', livechatBody({ timezone: '+01:00' }), 'config.timezone'],
      ['unknown business hours', livechatBody({ business_hours_id: 1 }), 'config.business_hours_id'],
      ['a short secret', livechatBody({ secret: 'short' }), 'config.secret'],
      ['a masked secret on create', livechatBody({ secret: SECRET_MASK }), 'config.secret'],
      ['a numeric secret', livechatBody({ secret: 1234567890 }), 'config.secret'],
      ['a non-http website', livechatBody({ website_url: 'javascript:alert(1)' }), 'config.website_url'],
      [
        'office hours after assignment alone',
        livechatBody({ show_office_hours_after_assignment: true }),
        'config.show_office_hours_after_assignment',
      ],
    ];
    for (const [label, payload, field] of invalid) {
      it(`refuses ${label} with 400 naming ${field}`, async () => {
        const body = fails(await create(payload), 400, 'InputException', label);
        assert.ok(String(body['message']).includes(field), `message names ${field}: ${body['message']}`);
      });
    }

    it('stores nothing when refused', async () => {
      const before = ok<Json[]>(await list()).length;
      fails(await create(livechatBody({ colors: { primary: 'blue' } })), 400, 'InputException');
      assert.equal(ok<Json[]>(await list()).length, before);
    });

    it('answers 401 anonymously and 403 to an agent without inboxes:manage', async () => {
      fails(await create(livechatBody(), null), 401, 'UnauthorizedException');
      fails(await create(livechatBody(), agent), 403, 'PermissionException');
    });
  });

  describe('secrets at rest', () => {
    it('stores the passwords and the live-chat secret encrypted, never in plain text', async () => {
      const email = ok(await create(emailBody({ name: 'At rest' })));
      const stored = await storedConfig(email['id'] as number);
      for (const [value, plain] of [
        [stored.imap?.password, IMAP_PASSWORD],
        [stored.smtp?.password, SMTP_PASSWORD],
      ] as const) {
        const cipher = text(value);
        assert.ok(cipher.startsWith('enc:v1:'), `encrypted: ${cipher}`);
        assert.ok(!cipher.includes(plain));
        assert.equal(decryptSecret(t.deps.config.secretKey, cipher), plain);
      }
      assert.ok(!JSON.stringify(stored).includes(IMAP_PASSWORD));

      const secret = 'live-chat-secret-that-is-long-enough-1234';
      const chat = ok(await create(livechatBody({ secret }, { name: 'At rest chat' })));
      const chatStored = await storedConfig(chat['id'] as number);
      assert.ok(text(chatStored.secret).startsWith('enc:v1:'));
      assert.ok(!JSON.stringify(chatStored).includes(secret));
      assert.equal(decryptSecret(t.deps.config.secretKey, text(chatStored.secret)), secret);
    });

    it('masks the secrets in every response: create, get, list, update and toggle', async () => {
      const secret = 'masked-everywhere-secret-0123456789abcdef';
      const created = await create(emailBody({ name: 'Masked mail' }));
      const email = ok(created);
      assertMasked(created, [IMAP_PASSWORD, SMTP_PASSWORD]);
      const chat = ok(await create(livechatBody({ secret }, { name: 'Masked chat' })));
      const plaintexts = [IMAP_PASSWORD, SMTP_PASSWORD, secret];
      for (const inbox of [email, chat]) {
        assertMasked(await get(inbox['id']), plaintexts);
        assertMasked(await put(inbox['id'], { name: `${inbox['name']} renamed` }), plaintexts);
        assertMasked(await toggle(inbox['id'], { enabled: false }), plaintexts);
      }
      const all = await list();
      assertMasked(all, plaintexts);
      const masked = ok<Json[]>(all).find((i) => i['id'] === chat['id']);
      assert.ok(masked);
      assert.equal((masked['config'] as Json)['secret'], SECRET_MASK);
      const compactBody = (await compact()).body;
      for (const plain of plaintexts) assert.ok(!compactBody.includes(plain));
    });

    it('keeps the stored secrets when the mask is sent back (echoing the whole GET record)', async () => {
      const email = ok(await create(emailBody({ name: 'Round trip' })));
      const fetched = ok(await get(email['id']));
      const res = await put(email['id'], { ...fetched, name: 'Round trip 2' });
      const updated = ok(res);
      assert.equal(updated['name'], 'Round trip 2');
      assertMasked(res, [IMAP_PASSWORD, SMTP_PASSWORD]);
      const config = await revealed(String(email['uuid']));
      assert.equal(config.imap?.password, IMAP_PASSWORD);
      assert.equal(config.smtp?.password, SMTP_PASSWORD);
      assert.ok((await storedConfig(email['id'] as number)).imap?.password.startsWith('enc:v1:'));
    });

    it('replaces a secret when a new value is sent and keeps the masked one beside it', async () => {
      const email = ok(await create(emailBody({ name: 'Replace' })));
      const config = emailConfig({ imap: { password: 'brand-new-imap-password' }, smtp: { password: SECRET_MASK } });
      const res = await put(email['id'], { config });
      ok(res);
      assert.ok(!res.body.includes('brand-new-imap-password'));
      const plain = await revealed(String(email['uuid']));
      assert.equal(plain.imap?.password, 'brand-new-imap-password');
      assert.equal(plain.smtp?.password, SMTP_PASSWORD);
      const stored = await storedConfig(email['id'] as number);
      assert.ok(!JSON.stringify(stored).includes('brand-new-imap-password'));
    });

    it('keeps a secret left out of an updated config, and clears a password set to empty', async () => {
      const email = ok(await create(emailBody({ name: 'Left out' })));
      const { password: _imap, ...imapWithout } = emailConfig()['imap'] as Json;
      ok(await put(email['id'], { config: { imap: imapWithout, smtp: { ...(emailConfig()['smtp'] as Json), password: '' } } }));
      const plain = await revealed(String(email['uuid']));
      assert.equal(plain.imap?.password, IMAP_PASSWORD);
      assert.equal(plain.smtp?.password, '');
    });

    it('asks for a mail server password again when its host, port or TLS settings change', async () => {
      const email = ok(await create(emailBody({ name: 'Moved host' })));
      const before = await storedConfig(email['id'] as number);
      const moved = emailConfig({ imap: { host: 'imap.elsewhere.net', password: SECRET_MASK }, smtp: { password: SECRET_MASK } });
      const body = fails(await put(email['id'], { config: moved }), 400, 'InputException');
      assert.match(String(body['message']), /config\.imap\.password: must be sent again when config\.imap\.host changes/);
      const { password: _left, ...imapWithout } = emailConfig({ smtp: { host: 'smtp.elsewhere.net' } })['smtp'] as Json;
      fails(await put(email['id'], { config: { imap: emailConfig()['imap'], smtp: imapWithout } }), 400, 'InputException');
      for (const [label, imap] of Object.entries({ port: { port: 143 }, tls: { tls: 'none' }, verify: { tls_skip_verify: true } })) {
        const res = await put(email['id'], {
          config: emailConfig({ imap: { ...imap, password: SECRET_MASK }, smtp: { password: SECRET_MASK } }),
        });
        assert.match(String(fails(res, 400, 'InputException')['message']), /config\.imap\.password: must be sent again/, label);
      }
      assert.deepEqual(await storedConfig(email['id'] as number), before);
      // The same settings echoed (tls_skip_verify left out, or false) keep it.
      const same = emailConfig({ imap: { password: SECRET_MASK, tls_skip_verify: false }, smtp: { password: SECRET_MASK } });
      ok(await put(email['id'], { config: same }));
      ok(
        await put(email['id'], {
          config: emailConfig({ imap: { host: 'imap.elsewhere.net', password: 'typed' }, smtp: { password: SECRET_MASK } }),
        }),
      );
      assert.equal((await revealed(String(email['uuid']))).imap?.password, 'typed');
    });

    it('lets a secret written under another SECRET_KEY be typed again instead of failing with 500', async () => {
      const email = ok(await create(emailBody({ name: 'Rotated key' })));
      const id = email['id'] as number;
      const stored = (await storedConfig(id)) as { imap: Json; smtp: Json };
      const foreign = encryptSecret(Buffer.from('a-different-secret-key-0123456789abcdefgh'), 'old');
      const rotated = { ...stored, imap: { ...stored.imap, password: foreign } };
      await t.deps.db
        .updateTable('inboxes')
        .set({ config: JSON.stringify(rotated) })
        .where('id', '=', id)
        .execute();
      const body = fails(
        await put(id, { config: emailConfig({ imap: { password: SECRET_MASK }, smtp: { password: SECRET_MASK } }) }),
        400,
        'InputException',
      );
      assert.match(String(body['message']), /config\.imap\.password/);
      ok(await put(id, { config: emailConfig({ imap: { password: 'typed-again' }, smtp: { password: SECRET_MASK } }) }));
      const plain = await revealed(String(email['uuid']));
      assert.equal(plain.imap?.password, 'typed-again');
      assert.equal(plain.smtp?.password, SMTP_PASSWORD);
    });

    it('keeps, replaces and refuses the live-chat secret on update', async () => {
      const chat = ok(await create(livechatBody({}, { name: 'Secret chat' })));
      const uuid = String(chat['uuid']);
      const original = (await revealed(uuid)).secret;
      ok(await put(chat['id'], { config: { brand_name: 'Kept', secret: SECRET_MASK } }));
      assert.equal((await revealed(uuid)).secret, original);
      ok(await put(chat['id'], { config: { brand_name: 'Still kept' } }));
      assert.equal((await revealed(uuid)).secret, original);
      const replacement = 'replacement-secret-0123456789-abcdefghij';
      ok(await put(chat['id'], { config: { secret: replacement } }));
      assert.equal((await revealed(uuid)).secret, replacement);
      fails(await put(chat['id'], { config: { secret: 'too-short' } }), 400, 'InputException');
      assert.equal((await revealed(uuid)).secret, replacement);
    });
  });

  describe('read', () => {
    it('gets one inbox, lists the live ones, and gives any agent the compact list', async () => {
      const chat = ok(await create(livechatBody({}, { name: 'Readable' })));
      const fetched = ok(await get(chat['id']));
      assert.deepEqual(fetched, { ...chat, config: { ...(chat['config'] as Json), secret: SECRET_MASK } });
      const all = ok<Json[]>(await list());
      assert.ok(all.some((i) => i['id'] === chat['id']));
      for (const inbox of all) assert.deepEqual(Object.keys(inbox).sort(), INBOX_KEYS);
      const small = ok<Json[]>(await compact(agent));
      const entry = small.find((i) => i['id'] === chat['id']);
      assert.deepEqual(entry, { id: chat['id'], uuid: chat['uuid'], name: 'Readable', channel: 'livechat', enabled: true });
      for (const inbox of small) assert.deepEqual(Object.keys(inbox).sort(), ['channel', 'enabled', 'id', 'name', 'uuid']);
    });

    it('answers 404 NotFoundException for unknown and malformed ids', async () => {
      for (const id of [999999, 0, -1, 'abc', '1.5', '99999999999']) fails(await get(id), 404, 'NotFoundException', String(id));
    });

    it('answers 401 anonymously and 403 to an agent', async () => {
      fails(await get(1, null), 401, 'UnauthorizedException');
      fails(await get(1, agent), 403, 'PermissionException');
      fails(await t.call({ method: 'GET', url: '/api/v1/inboxes', as: null }), 401, 'UnauthorizedException');
      fails(await t.call({ method: 'GET', url: '/api/v1/inboxes', as: agent }), 403, 'PermissionException');
      fails(await t.call({ method: 'GET', url: '/api/v1/inboxes/compact', as: null }), 401, 'UnauthorizedException');
    });

    it('finds an inbox by uuid for internal use, with its secrets decrypted', async () => {
      const email = ok(await create(emailBody({ name: 'By uuid' })));
      const inbox = await getInboxByUuid(t.deps, String(email['uuid']).toUpperCase());
      assert.ok(inbox);
      assert.equal(inbox.id, email['id']);
      assert.equal(inbox.channel, 'email');
      assert.equal((inbox.config as { imap: { password: string } }).imap.password, IMAP_PASSWORD);
      assert.equal(await getInboxByUuid(t.deps, 'not-a-uuid'), null);
      assert.equal(await getInboxByUuid(t.deps, '00000000-0000-4000-8000-000000000000'), null);
    });
  });

  describe('update', () => {
    it('updates name, flags and from, and moves updated_at', async () => {
      const email = ok(await create(emailBody({ name: 'Before' })));
      clock.advance(60_000);
      const updated = ok(await put(email['id'], { name: ' After ', enabled: false, csat_enabled: true, from: 'help@example.com' }));
      assert.equal(updated['name'], 'After');
      assert.equal(updated['enabled'], false);
      assert.equal(updated['csat_enabled'], true);
      assert.equal(updated['from'], 'help@example.com');
      assert.equal(updated['created_at'], email['created_at']);
      assert.ok(Date.parse(String(updated['updated_at'])) > Date.parse(String(email['updated_at'])));
      assert.deepEqual(updated['config'], email['config'], 'config untouched when not sent');
      assert.deepEqual(ok(await get(email['id'])), updated);
    });

    it('accepts the read-only fields echoed back and ignores them', async () => {
      const chat = ok(await create(livechatBody({}, { name: 'Echo' })));
      const updated = ok(
        await put(chat['id'], {
          ...chat,
          id: 123456,
          uuid: '00000000-0000-4000-8000-000000000000',
          created_at: 'x',
          updated_at: 'y',
          name: 'Echoed',
        }),
      );
      assert.equal(updated['id'], chat['id']);
      assert.equal(updated['uuid'], chat['uuid']);
      assert.equal(updated['created_at'], chat['created_at']);
      assert.equal(updated['name'], 'Echoed');
    });

    it('replaces the live-chat config, filling defaults again', async () => {
      const chat = ok(await create(livechatBody({ brand_name: 'Old', trusted_domains: ['a.example.com'] }, { name: 'Replace config' })));
      const updated = ok(await put(chat['id'], { config: { brand_name: 'New' } }));
      const config = updated['config'] as Json;
      assert.equal(config['brand_name'], 'New');
      assert.deepEqual(config['trusted_domains'], []);
      assert.equal(config['session_duration'], '30d');
    });

    it('lets a live-chat inbox drop its from, but not an email inbox', async () => {
      const chat = ok(await create(livechatBody({}, { name: 'From chat', from: 'chat@example.com' })));
      assert.equal(chat['from'], 'chat@example.com');
      assert.equal(ok(await put(chat['id'], { from: null }))['from'], null);
      const email = ok(await create(emailBody({ name: 'From mail' })));
      const body = fails(await put(email['id'], { from: null }), 400, 'InputException');
      assert.match(String(body['message']), /from/);
      fails(await put(email['id'], { from: '' }), 400, 'InputException');
    });

    it('refuses a channel change with 422 DataException, and accepts the unchanged channel', async () => {
      const email = ok(await create(emailBody({ name: 'Channel' })));
      fails(await put(email['id'], { channel: 'livechat' }), 422, 'DataException');
      fails(await put(email['id'], { channel: 'livechat', config: {} }), 422, 'DataException');
      ok(await put(email['id'], { channel: 'email', name: 'Channel kept' }));
      assert.equal(ok(await get(email['id']))['channel'], 'email');
    });

    const invalid: Array<[string, unknown, string]> = [
      ['an unknown channel', { channel: 'sms' }, 'channel'],
      ['an empty name', { name: '' }, 'name'],
      ['a numeric name', { name: 7 }, 'name'],
      ['a string enabled', { enabled: 'false' }, 'enabled'],
      ['a null csat_enabled', { csat_enabled: null }, 'csat_enabled'],
      ['an unknown property', { colour: 'red' }, 'colour'],
      ['a bad email config', { config: emailConfig({ imap: { port: -1 } }) }, 'config.imap.port'],
      ['a live-chat config on an email inbox', { config: { brand_name: 'x' } }, 'config'],
      ['an array config', { config: [] }, 'config'],
    ];
    for (const [label, payload, field] of invalid) {
      it(`refuses ${label} with 400 naming ${field}`, async () => {
        const email = ok(await create(emailBody({ name: `Invalid ${label}` })));
        const body = fails(await put(email['id'], payload), 400, 'InputException', label);
        assert.ok(String(body['message']).includes(field), `message names ${field}: ${body['message']}`);
        assert.deepEqual(ok(await get(email['id'])), email, 'nothing changed');
      });
    }

    it('answers 404 for unknown and malformed ids, 401 anonymously and 403 to an agent', async () => {
      for (const id of [999999, 'abc', 0]) fails(await put(id, { name: 'x' }), 404, 'NotFoundException', String(id));
      const chat = ok(await create(livechatBody({}, { name: 'Guarded' })));
      fails(await put(chat['id'], { name: 'x' }, null), 401, 'UnauthorizedException');
      fails(await put(chat['id'], { name: 'x' }, agent), 403, 'PermissionException');
      assert.equal(ok(await get(chat['id']))['name'], 'Guarded');
    });
  });

  describe('toggle', () => {
    it('sets enabled to the given value and returns the inbox', async () => {
      const chat = ok(await create(livechatBody({}, { name: 'Toggled' })));
      const off = ok(await toggle(chat['id'], { enabled: false }));
      assert.equal(off['enabled'], false);
      assert.deepEqual(Object.keys(off).sort(), INBOX_KEYS);
      assert.equal(ok(await toggle(chat['id'], { enabled: false }))['enabled'], false, 'not a flip');
      assert.equal(ok(await toggle(chat['id'], { enabled: true }))['enabled'], true);
      assert.equal(ok(await get(chat['id']))['enabled'], true);
      const small = ok<Json[]>(await compact(agent)).find((i) => i['id'] === chat['id']);
      assert.equal(small?.['enabled'], true);
    });

    it('refuses a missing, wrong-typed or extra field with 400', async () => {
      const chat = ok(await create(livechatBody({}, { name: 'Toggle input' })));
      for (const payload of [{}, { enabled: 'false' }, { enabled: 0 }, { enabled: null }, { enabled: true, name: 'x' }, []]) {
        fails(await toggle(chat['id'], payload), 400, 'InputException', JSON.stringify(payload));
      }
      assert.equal(ok(await get(chat['id']))['enabled'], true);
    });

    it('answers 404 for unknown ids, 401 anonymously and 403 to an agent', async () => {
      fails(await toggle(999999, { enabled: true }), 404, 'NotFoundException');
      fails(await toggle('abc', { enabled: true }), 404, 'NotFoundException');
      fails(await toggle(1, { enabled: true }, null), 401, 'UnauthorizedException');
      fails(await toggle(1, { enabled: true }, agent), 403, 'PermissionException');
    });
  });

  describe('delete', () => {
    it('soft-deletes: true, then 404 everywhere and gone from the lists, the row kept', async () => {
      const chat = ok(await create(livechatBody({}, { name: 'Doomed' })));
      fails(await remove(chat['id'], agent), 403, 'PermissionException');
      fails(await remove(chat['id'], null), 401, 'UnauthorizedException');
      const res = await remove(chat['id']);
      assert.equal(ok<boolean>(res), true);
      assert.deepEqual(res.json(), { status: 'success', data: true });
      fails(await get(chat['id']), 404, 'NotFoundException');
      fails(await put(chat['id'], { name: 'Zombie' }), 404, 'NotFoundException');
      fails(await toggle(chat['id'], { enabled: true }), 404, 'NotFoundException');
      fails(await remove(chat['id']), 404, 'NotFoundException');
      assert.ok(!ok<Json[]>(await list()).some((i) => i['id'] === chat['id']));
      assert.ok(!ok<Json[]>(await compact(agent)).some((i) => i['id'] === chat['id']));
      assert.equal(await getInboxByUuid(t.deps, String(chat['uuid'])), null);
      const row = await t.deps.db
        .selectFrom('inboxes')
        .where('id', '=', chat['id'] as number)
        .select(['deleted_at', 'name'])
        .executeTakeFirstOrThrow();
      assert.ok(row.deleted_at instanceof Date);
      assert.equal(row.name, 'Doomed');
    });

    it('answers 404 for unknown and malformed ids', async () => {
      for (const id of [999999, 'abc', 0]) fails(await remove(id), 404, 'NotFoundException', String(id));
    });
  });

  it('documents every inbox route in the OpenAPI document', async () => {
    const doc = t.app.swagger() as unknown as { paths: Record<string, Json> };
    assert.ok(doc.paths['/api/v1/inboxes']?.['post']);
    assert.ok(doc.paths['/api/v1/inboxes/compact']?.['get']);
    assert.ok(doc.paths['/api/v1/inboxes/{id}']?.['delete']);
    assert.ok(doc.paths['/api/v1/inboxes/{id}/toggle']?.['put']);
  });
});
