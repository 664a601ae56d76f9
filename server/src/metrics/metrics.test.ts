// The metrics: who may read them (the token on the main port, the port of its own), the request
// timer's labels (route templates, never raw URLs), and the counters and gauges moving when the
// things they count happen (sockets, webhook attempts, mails, the job queue).
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { createContact, createConversation, createInbox } from '../../test/factories.ts';
import { assertError, buildTestApp, type TestApp } from '../../test/helpers.ts';
import { buildMail, emailInbox, malformedMail, nextSource } from '../../test/mail.ts';
import { insertWebhook, type Receiver, startReceiver, waitUntil } from '../../test/receiver.ts';
import { listen, nextFrame, openSocket } from '../../test/sockets.ts';
import { ingestMail } from '../email/email.ingest.ts';
import { enqueueJob } from '../jobs/jobs.service.ts';
import { dispatchOnce } from '../webhooks/webhooks.dispatcher.ts';
import { issueWidgetSession } from '../widget/widget.sessions.ts';
import { startMetricsServer } from './metrics.routes.ts';

const TOKEN = 'metrics-token-0123456789';
const bearer = { authorization: `Bearer ${TOKEN}` };

/** The value of one series in a Prometheus text body, or undefined when it is absent. */
function sample(body: string, name: string, labels: Record<string, string> = {}): number | undefined {
  for (const line of body.split('\n')) {
    if (!line.startsWith(`${name}{`) && !line.startsWith(`${name} `)) continue;
    const wanted = Object.entries(labels).every(([key, value]) => line.includes(`${key}="${value}"`));
    if (wanted) return Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return undefined;
}

async function scrape(t: TestApp): Promise<string> {
  const res = await t.app.inject({ method: 'GET', url: '/metrics', headers: bearer });
  assert.equal(res.statusCode, 200, res.body);
  return res.body;
}

describe('GET /metrics on the main port', () => {
  let t: TestApp;
  let plain: TestApp;
  before(async () => {
    t = await buildTestApp({ env: { METRICS_TOKEN: TOKEN } });
    plain = await buildTestApp();
  });
  after(async () => {
    await t?.close();
    await plain?.close();
  });

  it('does not exist without METRICS_TOKEN: 404 like any unknown path, token or not', async () => {
    for (const headers of [{}, bearer]) {
      const res = await plain.call({ method: 'GET', url: '/metrics', headers, as: null });
      assertError(res, 404, 'NotFoundException');
    }
  });

  it('refuses a missing or wrong token with the 401 envelope', async () => {
    const wrong = [
      {},
      { authorization: 'Bearer nope' },
      { authorization: `Bearer ${TOKEN}x` },
      { authorization: `Basic ${Buffer.from(`x:${TOKEN}`).toString('base64')}` },
      { authorization: TOKEN },
      { authorization: 'Bearer ' },
    ];
    for (const headers of wrong) {
      const res = await t.call({ method: 'GET', url: '/metrics', headers, as: null });
      assertError(res, 401, 'UnauthorizedException');
      assert.ok(!res.body.includes('parley_'), 'no figure leaks');
    }
  });

  it('answers the Prometheus text format with the expected metrics to the right token', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/metrics', headers: bearer });
    assert.equal(res.statusCode, 200);
    assert.match(String(res.headers['content-type']), /^text\/plain; version=0\.0\.4/);
    for (const name of [
      'parley_http_request_duration_seconds',
      'parley_db_query_duration_seconds',
      'parley_db_pool_connections',
      'parley_db_pool_idle_connections',
      'parley_db_pool_waiting_clients',
      'parley_jobs_pending',
      'parley_jobs_due',
      'parley_jobs_oldest_due_age_seconds',
      'parley_websockets_open',
      'parley_webhook_attempts_total',
      'parley_mail_ingested_total',
      'parley_process_resident_memory_bytes',
      'parley_nodejs_eventloop_lag_seconds',
      'parley_nodejs_gc_duration_seconds',
    ]) {
      assert.match(res.body, new RegExp(`^# TYPE ${name} `, 'm'), name);
    }
    const engine = t.deps.dbKind;
    assert.ok((sample(res.body, 'parley_db_pool_connections', { engine }) ?? 0) >= 1, 'the pool has a connection');
    assert.ok((sample(res.body, 'parley_db_query_duration_seconds_count', { outcome: 'ok' }) ?? 0) > 0, 'statements are counted');
  });

  it('times requests by route template, method and status class; unmatched paths share one label', async () => {
    const uuid = randomUUID();
    const res = await t.call({ method: 'GET', url: `/api/v1/conversations/${uuid}` });
    assertError(res, 404, 'NotFoundException');
    await t.call({ method: 'GET', url: `/no/such/path/${uuid}`, as: null });
    const body = await scrape(t);
    const route = { route: '/api/v1/conversations/:cuuid', method: 'GET', status_class: '4xx' };
    assert.equal(sample(body, 'parley_http_request_duration_seconds_count', route), 1);
    assert.ok((sample(body, 'parley_http_request_duration_seconds_count', { route: 'unmatched', method: 'GET' }) ?? 0) >= 1);
    assert.ok(!body.includes(uuid), 'no raw URL in a label');
    await t.call({ method: 'GET', url: `/api/v1/conversations/${randomUUID()}` });
    assert.equal(sample(await scrape(t), 'parley_http_request_duration_seconds_count', route), 2, 'one series for every uuid');
  });

  it('reports the job queue per kind (pending, due, the oldest due one), read once per cache period', async () => {
    const fresh = await buildTestApp({ env: { METRICS_TOKEN: TOKEN } });
    try {
      await enqueueJob(fresh.deps, fresh.deps.db, { kind: 'metrics.test', payload: {} });
      await enqueueJob(fresh.deps, fresh.deps.db, { kind: 'metrics.test', payload: {}, runAt: new Date(Date.now() + 3_600_000) });
      const body = await scrape(fresh);
      assert.equal(sample(body, 'parley_jobs_pending', { kind: 'metrics.test' }), 2);
      assert.equal(sample(body, 'parley_jobs_due', { kind: 'metrics.test' }), 1);
      assert.ok((sample(body, 'parley_jobs_oldest_due_age_seconds', { kind: 'metrics.test' }) ?? -1) >= 0);
      // Within the cache period a scrape does not read the queue again.
      await enqueueJob(fresh.deps, fresh.deps.db, { kind: 'metrics.test', payload: {} });
      assert.equal(sample(await scrape(fresh), 'parley_jobs_pending', { kind: 'metrics.test' }), 2);
    } finally {
      await fresh.close();
    }
  });

  it('counts open agent and widget sockets, and forgets them when they close', async () => {
    const base = await listen(t.app);
    const agent = await openSocket(`${base}/ws`, t.admin.headers);
    await waitUntil('the agent socket counted', async () => sample(await scrape(t), 'parley_websockets_open', { kind: 'agent' }) === 1);
    await agent.close();
    await waitUntil('the agent socket forgotten', async () => sample(await scrape(t), 'parley_websockets_open', { kind: 'agent' }) === 0);
    // An upgraded request is not timed: its "duration" would be the socket's lifetime.
    assert.equal(sample(await scrape(t), 'parley_http_request_duration_seconds_count', { route: '/ws' }), undefined);
    assert.equal(sample(await scrape(t), 'parley_websockets_open', { kind: 'widget' }), 0);
    const inbox = await createInbox(t);
    const conversation = await createConversation(t, { inbox_id: inbox.id });
    const token = await issueWidgetSession(
      t.deps.db,
      { userId: conversation.contact.id, inboxId: inbox.id, isVisitor: true, lifetimeMs: 3600_000 },
      t.deps.clock.now(),
    );
    const widget = await openSocket(`${base}/widget/ws`);
    widget.send({ type: 'join', token, data: { inbox_id: inbox.uuid } });
    assert.equal((await nextFrame(widget)).type, 'joined');
    assert.equal(sample(await scrape(t), 'parley_websockets_open', { kind: 'widget' }), 1);
    await widget.close();
    await waitUntil('the widget socket forgotten', async () => sample(await scrape(t), 'parley_websockets_open', { kind: 'widget' }) === 0);
  });
});

describe('metrics counted where things happen', () => {
  let t: TestApp;
  let receiver: Receiver;
  before(async () => {
    t = await buildTestApp({ env: { METRICS_TOKEN: TOKEN, WEBHOOK_ALLOW_HOSTS: '127.0.0.1' } });
    receiver = await startReceiver();
  });
  after(async () => {
    await receiver?.close();
    await t?.close();
  });

  it('counts webhook attempts by outcome', async () => {
    await insertWebhook(t, { url: receiver.url, events: ['contact.created'] });
    await createContact(t);
    await waitUntil('the delivery attempted', async () => (await dispatchOnce(t.deps)).length > 0);
    receiver.answer({ status: 500 });
    await createContact(t);
    await waitUntil('the failed delivery attempted', async () => (await dispatchOnce(t.deps)).length > 0);
    const body = await scrape(t);
    assert.equal(sample(body, 'parley_webhook_attempts_total', { outcome: 'delivered' }), 1);
    assert.equal(sample(body, 'parley_webhook_attempts_total', { outcome: 'retrying' }), 1);
  });

  it('counts mails taken in by channel and outcome', async () => {
    const inbox = await emailInbox(t);
    const raw = await buildMail({ from: 'customer@example.net', to: inbox.address.address, subject: 'Help' });
    assert.equal((await ingestMail(t.deps, inbox, raw, nextSource())).kind, 'stored');
    assert.equal((await ingestMail(t.deps, inbox, raw, nextSource())).kind, 'duplicate');
    assert.equal((await ingestMail(t.deps, inbox, malformedMail(), nextSource())).kind, 'skipped');
    const body = await scrape(t);
    for (const outcome of ['stored', 'duplicate', 'skipped']) {
      assert.equal(sample(body, 'parley_mail_ingested_total', { channel: 'email', outcome }), 1, outcome);
    }
  });
});

describe('the metrics port (METRICS_PORT)', () => {
  let t: TestApp;
  before(async () => {
    t = await buildTestApp({ env: { METRICS_PORT: '0', METRICS_HOST: '127.0.0.1' } });
  });
  after(() => t?.close());

  it('serves /metrics without a token on its own port, and nothing else; the main port has no /metrics', async () => {
    const server = await startMetricsServer(t.deps);
    assert.ok(server, 'started');
    try {
      assert.notEqual(server.port, 0);
      const res = await fetch(`http://127.0.0.1:${server.port}/metrics`);
      assert.equal(res.status, 200);
      assert.match(res.headers.get('content-type') ?? '', /^text\/plain/);
      const body = await res.text();
      assert.match(body, /^# TYPE parley_http_request_duration_seconds histogram$/m);
      assert.match(body, /^# TYPE parley_process_resident_memory_bytes gauge$/m);
      assert.equal((await fetch(`http://127.0.0.1:${server.port}/`)).status, 404);
      assert.equal((await fetch(`http://127.0.0.1:${server.port}/metrics`, { method: 'POST' })).status, 404);
      assertError(await t.call({ method: 'GET', url: '/metrics', as: null }), 404, 'NotFoundException');
    } finally {
      await server.close();
    }
  });

  it('is not started without METRICS_PORT', async () => {
    const plain = await buildTestApp();
    try {
      assert.equal(await startMetricsServer(plain.deps), null);
    } finally {
      await plain.close();
    }
  });
});
