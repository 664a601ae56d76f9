import { loadConfig } from '../src/config.ts';
import { openRuntime } from '../src/setup.ts';
import { loadTargets } from './seed.ts';
import pino from 'pino';
const config = loadConfig({ ...process.env, DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/parley_bench', SECRET_KEY: 'x'.repeat(40) });
const rt = await openRuntime(config, pino({ level: 'warn' }) as any);
const t = await loadTargets(rt.deps);
console.log(JSON.stringify({ agent: t.agent.authorization, msg: t.messages[0], conv: t.replyConversations[0] }));
await rt.close();
