// Remote images in a contact's mail, in a real browser (docs/web.md): a tracking pixel on a
// loopback https server is not requested when the agent opens the conversation, and is once the
// agent clicks "Load images"; the page's CSP still holds (no page error). "Always load images
// from <sender>" remembers the choice on the contact (its conversations then load them without a
// click), and the contact card's switch turns it off again. An image with a relative source (HTML
// stored before the server's sanitiser refused those) would load with the agent's cookies: it
// never loads, before or after the click.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import { ingestMail } from '../../src/email/email.ingest.ts';
import type { Page } from 'playwright-core';
import { browserMissing, pageErrors } from '../browser.ts';
import { buildMail, emailInbox, nextSource } from '../mail.ts';
import { type AgentDesk, agentDesk } from './agent-harness.ts';

const GIF = Buffer.from('R0lGODlhAQABAAAAACH5BAEAAAAALAAAAAABAAEAAAIBAAA=', 'base64');

describe('remote images in a contact mail', { skip: browserMissing() ?? false, timeout: 180_000 }, () => {
  let desk: AgentDesk | undefined;
  let pixel: Server;
  let pixelBase: string;
  const requests: string[] = [];
  const certDir = mkdtempSync(join(tmpdir(), 'parley-pixel-'));

  before(async () => {
    desk = await agentDesk();
    const cert = join(certDir, 'cert.pem');
    const key = join(certDir, 'key.pem');
    execFileSync(
      'openssl',
      ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', key, '-out', cert, '-days', '2', '-subj', '/CN=127.0.0.1'],
      {
        stdio: 'ignore',
      },
    );
    pixel = createServer({ cert: readFileSync(cert), key: readFileSync(key) }, (req, res) => {
      requests.push(req.url ?? '');
      res.writeHead(200, { 'content-type': 'image/gif', 'cache-control': 'no-store' }).end(GIF);
    });
    await new Promise<void>((resolve) => pixel.listen(0, '127.0.0.1', resolve));
    pixelBase = `https://127.0.0.1:${(pixel.address() as AddressInfo).port}`;
  });
  after(async () => {
    await desk?.close();
    pixel?.close();
    rmSync(certDir, { recursive: true, force: true });
  });

  /** A mail from `from` with a pixel at `path` (a new conversation, assigned to Ann); its uuid. */
  async function mailWithPixel(from: string, subject: string, path: string): Promise<string> {
    const { server, ann } = desk!;
    const inbox = await emailInbox(server.t);
    const raw = await buildMail({
      from,
      to: inbox.address.address,
      subject,
      html: `<p>Hello, a question.</p><img src="${pixelBase}${path}" alt="" width="1" height="1">`,
    });
    const outcome = await ingestMail(server.t.deps, inbox, raw, nextSource());
    assert.equal(outcome.kind, 'stored');
    const uuid = outcome.kind === 'stored' ? outcome.conversationUuid : '';
    const assigned = await server.t.call({
      method: 'PUT',
      url: `/api/v1/conversations/${uuid}/assignee/user`,
      payload: { assignee_id: ann.id },
    });
    assert.equal(assigned.statusCode, 200, assigned.body);
    return uuid;
  }

  /** The requests for `path` once they reach `count` (or after 10 s). */
  async function requestsOf(page: Page, path: string, count: number): Promise<string[]> {
    const deadline = Date.now() + 10_000;
    while (requests.filter((r) => r === path).length < count && Date.now() < deadline) await page.waitForTimeout(100);
    return requests.filter((r) => r === path);
  }

  it('loads no remote image until the agent clicks "Load images", and never one with a relative source', async () => {
    const { server, browser } = desk!;
    const uuid = await mailWithPixel('customer@example.net', 'With a pixel', '/open.gif?m=1');
    // As stored before the sanitiser refused relative sources.
    const { id } = await server.t.deps.db.selectFrom('conversations').where('uuid', '=', uuid).select('id').executeTakeFirstOrThrow();
    const relative =
      '<img src="/api/v1/agents/me?held-probe=1" alt="" width="1" height="1"><img srcset="/api/v1/agents/me?held-probe=2 2x" alt="">';
    await server.t.deps.db
      .updateTable('messages')
      .set({ content: sql<string>`content || ${relative}` })
      .where('conversation_id', '=', id)
      .where('type', '=', 'incoming')
      .execute();

    const context = await browser.newContext({ baseURL: server.base, ignoreHTTPSErrors: true, locale: 'en-GB' });
    const page = await context.newPage();
    const probes: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes('held-probe')) probes.push(request.url());
    });
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(message.text());
    });
    await desk!.signedIn(page);
    await page.goto(`/inbox/mine/c/${uuid}`);
    await page.locator('.message__content').getByText('Hello, a question.').waitFor();
    await page.waitForTimeout(1500);
    assert.deepEqual(requests, [], 'the pixel was requested before the agent asked');
    await page.getByRole('button', { name: 'Load images', exact: true }).click();
    assert.deepEqual(await requestsOf(page, '/open.gif?m=1', 1), ['/open.gif?m=1'], 'the pixel was requested once, after the click');
    assert.deepEqual(requests, ['/open.gif?m=1']);
    assert.equal(await page.getByRole('button', { name: 'Load images', exact: true }).count(), 0);
    await page.waitForTimeout(500);
    assert.deepEqual(probes, [], 'an image with a relative source was requested');
    assert.deepEqual([...errors, ...pageErrors(page)], []);
    await context.close();
  });

  it('"Always load images from" the sender loads them in its conversations without a click, until the switch turns it off', async () => {
    const { server, browser } = desk!;
    const first = await mailWithPixel('trusted@example.net', 'First, with a pixel', '/open.gif?m=2');
    const second = await mailWithPixel('trusted@example.net', 'Second, with a pixel', '/open.gif?m=3');
    assert.notEqual(first, second);

    const context = await browser.newContext({ baseURL: server.base, ignoreHTTPSErrors: true, locale: 'en-GB' });
    const page = await context.newPage();
    await desk!.signedIn(page);
    await page.goto(`/inbox/mine/c/${first}`);
    await page.locator('.message__content').getByText('Hello, a question.').waitFor();
    await page.waitForTimeout(1000);
    assert.deepEqual(await requestsOf(page, '/open.gif?m=2', 0), [], 'held back before the choice');
    const always = page.getByRole('button', { name: /^Always load images from / });
    const saved = page.waitForResponse((r) => r.request().method() === 'PUT' && /\/api\/v1\/contacts\/\d+$/.test(r.url()));
    await always.click();
    assert.equal((await saved).status(), 200);
    assert.deepEqual(await requestsOf(page, '/open.gif?m=2', 1), ['/open.gif?m=2'], 'loaded once the sender is trusted');
    await page.getByRole('button', { name: 'Load images', exact: true }).waitFor({ state: 'detached' });

    // Another conversation of the contact, and this one opened again: no click needed.
    await page.goto(`/inbox/mine/c/${second}`);
    await page.locator('.message__content').getByText('Hello, a question.').waitFor();
    assert.deepEqual(await requestsOf(page, '/open.gif?m=3', 1), ['/open.gif?m=3'], 'loaded without a click');
    assert.equal(await page.getByRole('button', { name: 'Load images', exact: true }).count(), 0);
    await page.goto(`/inbox/mine/c/${first}`);
    await page.locator('.message__content').getByText('Hello, a question.').waitFor();
    assert.equal((await requestsOf(page, '/open.gif?m=2', 2)).length, 2, 'loaded again without a click');

    // The contact card's switch turns it off: the images are held back again, here and on reopening.
    const toggle = page.getByRole('switch', { name: "Load remote images in this contact's mail" });
    assert.equal(await toggle.getAttribute('aria-checked'), 'true');
    const cleared = page.waitForResponse((r) => r.request().method() === 'PUT' && /\/api\/v1\/contacts\/\d+$/.test(r.url()));
    await toggle.click();
    assert.equal((await cleared).status(), 200);
    await page.getByRole('button', { name: 'Load images', exact: true }).waitFor();
    assert.equal(await toggle.getAttribute('aria-checked'), 'false');
    await page.goto(`/inbox/mine/c/${second}`);
    await page.locator('.message__content').getByText('Hello, a question.').waitFor();
    await page.getByRole('button', { name: 'Load images', exact: true }).waitFor();
    await page.waitForTimeout(1000);
    assert.equal(requests.filter((r) => r === '/open.gif?m=3').length, 1, 'held back again once turned off');
    assert.deepEqual(pageErrors(page), []);
    await context.close();
  });
});
