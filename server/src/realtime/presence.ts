// Agent presence (docs/api.md, "Realtime"): an agent with no live agent socket on any instance
// for 5 minutes becomes offline (source idle), and every agent hears of it. Each hub records
// when its agents were last connected (agent_presence); this periodic task reads that.
import { setIdleOffline } from '../agents/agents.service.ts';
import type { AppDeps } from '../deps.ts';
import { agentsAbsentSince, isAbsentSince } from './realtime.queries.ts';

export const ABSENT_OFFLINE_MS = 5 * 60_000;

export async function markAbsentAgentsOffline(deps: AppDeps): Promise<number> {
  const now = deps.clock.now();
  const before = new Date(now.getTime() - ABSENT_OFFLINE_MS);
  const absent = await agentsAbsentSince(deps.db, before, now);
  let changed = 0;
  for (const agentId of absent) if (await setIdleOffline(deps, agentId, (trx) => isAbsentSince(trx, agentId, before))) changed += 1;
  return changed;
}
