// The HTTP scenarios: what each requests, as whom and on which server (Parley's or the bare
// route's), in the order they run; the reference routes among them, each run when a scenario set
// against it runs; and the page the bare server answers as the lists' floor.
import { FLOORS } from './http-results.ts';
import type { Scenario } from './load.ts';
import type { Child } from './processes.ts';
import type { LoadTargets } from './targets.ts';
import { tagNames } from './words.ts';

export interface ScenarioPlan extends Scenario {
  baseUrl: string;
  /** Also time single sequential requests (per-request targets); a number: at least that many. */
  sequential?: boolean | number;
}

export function scenarios(bare: Child, parley: Child, targets: LoadTargets, pageBytes: number, widgetInbox: string | null): ScenarioPlan[] {
  const agent = { authorization: targets.agent.authorization };
  const admin = { authorization: targets.admin.authorization };
  const replies = [
    'Thanks for your patience, I have looked into this and the refund is on its way.',
    'Could you send us a screenshot of the error and the browser version you use?',
    'I have reset the password on our side; please try to log in again and tell me how it goes.',
    'Your order has shipped today: the tracking number is in the confirmation email.',
  ].map((text) => JSON.stringify({ message: `<p>${text}</p>` }));
  return [
    { id: 'bare', title: 'Bare Fastify route `GET /`', as: '—', baseUrl: bare.baseUrl, method: 'GET', paths: ['/'], headers: {} },
    {
      id: 'floor-select',
      title: 'Floor: bare route, one primary-key `SELECT` of a message through `pg`',
      as: '—',
      baseUrl: bare.baseUrl,
      method: 'GET',
      paths: targets.messages.map(([, , id]) => `/floor/select/${id}`),
      headers: {},
    },
    {
      id: 'message',
      title: '`GET /api/v1/conversations/{cuuid}/messages/{uuid}`',
      as: 'agent',
      baseUrl: parley.baseUrl,
      method: 'GET',
      paths: targets.messages.map(([c, m]) => `/api/v1/conversations/${c}/messages/${m}`),
      headers: agent,
    },
    {
      id: 'assigned-1',
      title: '`GET /api/v1/conversations/assigned?page=1`',
      as: 'agent',
      baseUrl: parley.baseUrl,
      method: 'GET',
      paths: ['/api/v1/conversations/assigned?page=1'],
      headers: agent,
    },
    {
      id: 'assigned-50',
      title: '`GET /api/v1/conversations/assigned?page=50`',
      as: 'agent',
      baseUrl: parley.baseUrl,
      method: 'GET',
      paths: ['/api/v1/conversations/assigned?page=50'],
      headers: agent,
    },
    {
      id: 'report',
      title: '`GET /api/v1/reports/overview/tags?days=365`',
      as: 'admin',
      baseUrl: parley.baseUrl,
      method: 'GET',
      paths: ['/api/v1/reports/overview/tags?days=365'],
      headers: admin,
      sequential: true,
    },
    {
      id: 'service-report',
      title: '`GET /api/v1/reports/service` (366 days)',
      as: 'admin',
      baseUrl: parley.baseUrl,
      method: 'GET',
      paths: [`/api/v1/reports/service?from=${isoDate(-365)}&to=${isoDate(0)}`],
      headers: admin,
      sequential: true,
    },
    {
      // A tag filter reads that tag's rollups (migration 0035): the seed's most used tag has the most rows.
      id: 'service-report-tag',
      title: '`GET /api/v1/reports/service?tag=…` (366 days, the most used tag)',
      as: 'admin',
      baseUrl: parley.baseUrl,
      method: 'GET',
      paths: [`/api/v1/reports/service?from=${isoDate(-365)}&to=${isoDate(0)}&tag=${encodeURIComponent(tagNames(1)[0]!)}`],
      headers: admin,
      sequential: true,
    },
    {
      id: 'search',
      title: '`GET /api/v1/search?q=…` (20 words)',
      as: 'agent',
      baseUrl: parley.baseUrl,
      method: 'GET',
      paths: targets.searchWords.map((word) => `/api/v1/search?q=${encodeURIComponent(word)}`),
      headers: agent,
      // Its target has a p99: a hundred requests make it the second slowest.
      sequential: 100,
    },
    {
      id: 'floor-insert',
      title: 'Floor: bare route, one `INSERT … RETURNING` through `pg`, committed',
      as: '—',
      baseUrl: bare.baseUrl,
      method: 'POST',
      paths: ['/floor/insert'],
      bodies: replies,
      headers: {},
    },
    // Last of Parley's: it adds messages, which the other scenarios should not see.
    {
      id: 'reply',
      title: '`POST /api/v1/conversations/{uuid}/messages`',
      as: 'agent',
      baseUrl: parley.baseUrl,
      method: 'POST',
      paths: targets.replyConversations.map((uuid) => `/api/v1/conversations/${uuid}/messages`),
      bodies: replies,
      headers: agent,
    },
    // Each request a new visitor, session and conversation, so after the other scenarios too.
    {
      id: 'widget-init',
      title: '`POST /api/v1/widget/chat/conversations/init` (a new visitor each)',
      as: 'visitor',
      baseUrl: parley.baseUrl,
      method: 'POST',
      paths: widgetInbox ? ['/api/v1/widget/chat/conversations/init'] : [],
      bodies: [JSON.stringify({ message: 'Hello, I have a question about my order.', form_data: {} })],
      headers: widgetInbox ? { 'x-service-inbox-id': widgetInbox } : {},
    },
    // After Parley's scenarios: its 36 KB answers at several thousand per second leave the load
    // generator's process slower for a while (the list's p99 measured after it was five times worse).
    {
      id: 'bare-page',
      title: `Bare Fastify route answering a stored page 1 of the assigned list (${(pageBytes / 1024).toFixed(0)} KB)`,
      as: '—',
      baseUrl: bare.baseUrl,
      method: 'GET',
      paths: ['/page'],
      headers: {},
    },
  ];
}

/** The reference scenarios, run whatever --only says. */
export const REFERENCE_IDS = ['bare', 'floor-select', 'floor-insert', 'bare-page'];

/** Whether a reference scenario runs: the bare route always, a floor when a scenario measured against it runs. */
export function referenceWanted(id: string, wants: (id: string) => boolean): boolean {
  return id === 'bare' || Object.entries(FLOORS).some(([scenario, floor]) => floor === id && wants(scenario));
}

/** Stores Parley's page 1 of the agent's assigned list in the bare server (its second reference route); returns its size in bytes. */
export async function storeReferencePage(bare: Child, parley: Child, targets: LoadTargets): Promise<number> {
  const answer = await fetch(`${parley.baseUrl}/api/v1/conversations/assigned?page=1`, {
    headers: { authorization: targets.agent.authorization },
  });
  const text = await answer.text();
  if (!answer.ok) throw new Error(`the assigned list answered ${answer.status}: ${text.slice(0, 200)}`);
  const stored = await fetch(`${bare.baseUrl}/page`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: text });
  if (!stored.ok) throw new Error(`the bare server refused the reference page: ${stored.status}`);
  return Buffer.byteLength(text);
}

/** A UTC date `days` from today, YYYY-MM-DD (the bench database's reports are in UTC). */
function isoDate(days: number): string {
  return new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
}
