// Per-request CPU of one route through inject (no sockets), sequential: where Node spends its time.
import { randomBytes } from 'node:crypto';
import pino from 'pino';
import { loadConfig } from '../src/config.ts';
import { openRuntime } from '../src/setup.ts';
import { buildApp } from '../src/app.ts';
import { loadTargets } from './targets.ts';
const which = process.argv[2] ?? 'list';
const n = Number(process.argv[3] ?? 2000);
const config = loadConfig({ DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/parley_bench', DATA_DIR: '/tmp/tmp-inject', SECRET_KEY: randomBytes(32).toString('base64url'), LOG_LEVEL: 'warn' }, process.cwd());
const runtime = await openRuntime(config, pino({ level: 'warn' }));
const app = await buildApp(runtime.deps);
await app.ready();
const targets = await loadTargets(runtime.deps);
const auth = { authorization: targets.agent.authorization };
const req = (i: number) => {
  if (which === 'list') return { method: 'GET' as const, url: '/api/v1/conversations/assigned?page=1', headers: auth };
  if (which === 'message') { const [c, m] = targets.messages[i % targets.messages.length]!; return { method: 'GET' as const, url: `/api/v1/conversations/${c}/messages/${m}`, headers: auth }; }
  const c = targets.replyConversations[i % targets.replyConversations.length]!;
  return { method: 'POST' as const, url: `/api/v1/conversations/${c}/messages`, headers: { ...auth, 'content-type': 'application/json' }, payload: JSON.stringify({ message: '<p>Thanks for your patience, I have looked into this and the refund is on its way.</p>' }) };
};
for (let i = 0; i < 200; i++) { const r = await app.inject(req(i)); if (r.statusCode >= 300) throw new Error(r.body); }

const cpu0 = process.cpuUsage(); const t0 = performance.now();
for (let i = 0; i < n; i++) await app.inject(req(i));
const cpu = process.cpuUsage(cpu0); const wall = performance.now() - t0;
console.log(`${which}: ${n} sequential; wall ${(wall / n).toFixed(3)} ms/req; Node CPU ${((cpu.user + cpu.system) / 1000 / n).toFixed(3)} ms/req`);
await app.close(); await runtime.close();
