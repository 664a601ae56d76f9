// `npm run mail-sandbox` end to end, as the README walks through it: the sandbox (Dovecot and
// its SMTP server) and Parley as real processes. A customer's mail sent to the sandbox's SMTP
// server becomes a conversation; the agent's reply goes out through the sandbox and is printed
// there with its reference and threading headers; the customer's answer to it joins the thread.
// Parley's own mail to agents (SMTP_URL pointed at the sandbox) is printed there too.
import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, before, describe, it } from 'node:test';
import nodemailer from 'nodemailer';
import { DOVECOT } from './dovecot.ts';
import { baseEnv, type Started, startServer, stopGracefully } from './process-helpers.ts';
import { waitUntil } from './receiver.ts';

const SANDBOX = resolve(import.meta.dirname, '..', 'scripts', 'mail-sandbox.ts');

interface SandboxPorts {
  imap: { host: string; port: number; username: string; password: string };
  smtp: { host: string; port: number };
}

describe('the mail sandbox, end to end', { skip: existsSync(DOVECOT) ? false : 'Dovecot is not installed' }, () => {
  let sandbox: ChildProcess;
  let printed = '';
  let ports: SandboxPorts;
  let server: Started;
  let dataDir: string;
  let auth: string;
  const api = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${server.base}/api/v1${path}`, {
      method,
      headers: { authorization: auth, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const json = (await res.json()) as { data: unknown };
    assert.equal(res.status, 200, JSON.stringify(json));
    return json.data as Record<string, unknown>;
  };

  before(async () => {
    sandbox = spawn(process.execPath, [SANDBOX], {
      env: { ...baseEnv(), MAIL_SANDBOX_IMAP_PORT: '0', MAIL_SANDBOX_SMTP_PORT: '0' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    sandbox.stdout?.on('data', (chunk: Buffer) => {
      printed += chunk.toString();
    });
    sandbox.stderr?.on('data', (chunk: Buffer) => {
      printed += chunk.toString();
    });
    await waitUntil('the sandbox to print its ports', () => printed.includes('\n'), 30_000);
    ports = JSON.parse(printed.slice(0, printed.indexOf('\n'))) as SandboxPorts;

    dataDir = mkdtempSync(join(tmpdir(), 'parley-sandbox-'));
    server = await startServer({
      DATA_DIR: dataDir,
      ADMIN_EMAIL: 'owner@example.com',
      ADMIN_PASSWORD: 'correct horse battery',
      LOG_LEVEL: 'warn',
      // System mail to agents through the sandbox, as the README says.
      SMTP_URL: `smtp://${ports.smtp.host}:${ports.smtp.port}`,
      MAIL_FROM: 'Parley <parley@example.test>',
    });
    const login = await fetch(`${server.base}/api/v1/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'owner@example.com', password: 'correct horse battery' }),
    });
    const cookies = login.headers.getSetCookie().map((c) => c.split(';')[0]);
    const csrf = cookies.find((c) => c?.startsWith('csrf_token='))?.slice('csrf_token='.length) ?? '';
    const minted = await fetch(`${server.base}/api/v1/agents/me/api-key`, {
      method: 'POST',
      headers: { cookie: cookies.join('; '), 'x-csrf-token': csrf },
    });
    const pair = ((await minted.json()) as { data: { api_key: string; api_secret: string } }).data;
    auth = `Basic ${Buffer.from(`${pair.api_key}:${pair.api_secret}`).toString('base64')}`;
  });

  after(async () => {
    if (server) await stopGracefully(server);
    if (sandbox && sandbox.exitCode === null) {
      const exited = new Promise((r) => sandbox.once('exit', r));
      sandbox.kill('SIGTERM');
      await exited;
    }
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it("prints Parley's mail to agents: a password-reset link", async () => {
    const res = await fetch(`${server.base}/api/v1/auth/password-reset`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'owner@example.com' }),
    });
    assert.equal(res.status, 200);
    await waitUntil('the sandbox to print the reset mail', () => printed.includes('/set-password?token='), 30_000);
    assert.match(printed, /── to owner@example\.com: Reset your Parley password/);
  });

  it('a customer mail becomes a conversation, the reply goes out threaded, the answer joins the thread', async () => {
    const inbox = await api('POST', '/inboxes', {
      name: 'Sandbox',
      channel: 'email',
      from: 'Support <support@example.test>',
      config: {
        imap: { host: ports.imap.host, port: ports.imap.port, tls: 'none', username: ports.imap.username, password: ports.imap.password },
        smtp: { host: ports.smtp.host, port: ports.smtp.port, tls: 'none' },
      },
    });
    const customer = nodemailer.createTransport({ host: ports.smtp.host, port: ports.smtp.port, secure: false, ignoreTLS: true });
    const first = await customer.sendMail({
      from: 'Ada <ada@customer.test>',
      to: 'support@example.test',
      subject: 'My order',
      text: 'Where is my order?',
    });

    type Listed = { results: Array<{ uuid: string; reference_number: string; subject: string; inbox_id: number }> };
    let conversation: Listed['results'][number] | undefined;
    await waitUntil(
      'the mail to become a conversation',
      async () => {
        const list = (await api('GET', '/conversations/all?page_size=10')) as unknown as Listed;
        conversation = list.results.find((c) => c.inbox_id === inbox['id']);
        return conversation !== undefined;
      },
      30_000,
    );
    assert.equal(conversation?.subject, 'My order');

    const reply = await api('POST', `/conversations/${conversation?.uuid}/messages`, { message: '<p>It ships today.</p>' });
    await waitUntil('the sandbox to print the reply', () => printed.includes('It ships today.'), 30_000);
    assert.match(printed, new RegExp(`── to ada@customer\\.test: Re: My order \\[#${conversation?.reference_number}\\]`));
    type Message = { uuid: string; status: string; meta: Record<string, unknown> };
    let sent: Message | undefined;
    await waitUntil(
      'the reply to be sent',
      async () => {
        const messages = (await api('GET', `/conversations/${conversation?.uuid}/messages`)) as unknown as { results: Message[] };
        sent = messages.results.find((m) => m.uuid === reply['uuid']);
        return sent?.status === 'sent';
      },
      30_000,
    );
    assert.equal(sent?.meta['in_reply_to'], first.messageId.replace(/^<|>$/g, ''));

    // The customer answers the reply with a client that keeps only In-Reply-To.
    await customer.sendMail({
      from: 'Ada <ada@customer.test>',
      to: 'support@example.test',
      subject: 'Re: My order',
      text: 'Thank you!',
      inReplyTo: `<${String(sent?.meta['message_id'])}>`,
    });
    await waitUntil(
      'the answer to join the thread',
      async () => {
        const messages = (await api('GET', `/conversations/${conversation?.uuid}/messages`)) as unknown as { results: Message[] };
        return messages.results.some((m) => JSON.stringify(m).includes('Thank you!'));
      },
      30_000,
    );
    const list = (await api('GET', '/conversations/all?page_size=10')) as unknown as Listed;
    assert.equal(list.results.filter((c) => c.inbox_id === inbox['id']).length, 1, 'one conversation');
  });
});
