// First run (docs/api.md, "First run"): a server that starts with no agent, and without
// ADMIN_EMAIL/ADMIN_PASSWORD, prints a one-time setup token; the web app's setup form sends it
// with the first admin's account. Only the token's SHA-256 is stored, in the database, so that
// any instance accepts the token the last start printed: each new token voids the older ones
// (a crash loop must not pile up live tokens), and creating the admin burns them all.
import { type AgentRecord, countAgents, createAdmin } from '../agents/agents.service.ts';
import { type NewSession, type SessionMeta, startSession } from '../auth/auth.service.ts';
import type { AppDeps } from '../deps.ts';
import { ConflictError, PermissionError } from '../errors.ts';
import { constantTimeEqual, randomToken, sha256 } from '../security/hashing.ts';
import * as q from './first-run.queries.ts';
import { SYSTEM_ACTOR } from '../audit/audit.service.ts';

/** How long a printed token works: a restart prints a new one and voids this one. */
export const SETUP_TOKEN_TTL_MS = 24 * 60 * 60 * 1000;

export async function setupNeeded(deps: AppDeps): Promise<boolean> {
  return (await countAgents(deps)) === 0;
}

/** A new token (32 random bytes) when no agent exists, else null. The caller prints it; nothing else keeps it. */
export async function issueSetupToken(deps: AppDeps): Promise<string | null> {
  if (!(await setupNeeded(deps))) return null;
  const now = deps.clock.now();
  await q.deleteAllSetupTokens(deps.db);
  const token = randomToken(32);
  await q.insertSetupToken(deps.db, {
    token_hash: sha256(token),
    created_at: now,
    expires_at: new Date(now.getTime() + SETUP_TOKEN_TTL_MS),
  });
  return token;
}

export interface SetupInput {
  token: string;
  email: string;
  password: string;
  first_name: string;
  last_name?: string;
}

const ALREADY_SET_UP = 'Parley is already set up: sign in with an existing agent';

/** Creates the first admin with a live token, signs them in, and burns every token. */
export async function completeSetup(
  deps: AppDeps,
  input: SetupInput,
  meta: SessionMeta,
): Promise<{ admin: AgentRecord; session: NewSession }> {
  if (!(await setupNeeded(deps))) throw new ConflictError(ALREADY_SET_UP);
  const now = deps.clock.now();
  const given = sha256(input.token);
  // Every live hash is compared in constant time (there are a handful: one per start).
  let match: string | null = null;
  for (const hash of await q.liveSetupTokenHashes(deps.db, now)) if (constantTimeEqual(hash, given)) match = hash;
  if (!match)
    throw new PermissionError(
      'The setup token is wrong or has expired: use the latest one the server log printed (a restart prints a new one)',
    );
  // Claiming the tokens and creating the admin are one transaction: of two concurrent setups
  // the second waits on the first's delete and then finds no token; a failure (a bad email,
  // a lost connection) rolls the claim back, so the same token works again.
  const admin = await createAdmin(
    deps,
    { ...SYSTEM_ACTOR, ip: meta.ip, userAgent: meta.userAgent },
    { email: input.email, password: input.password, first_name: input.first_name, last_name: input.last_name ?? '' },
    async (trx) => {
      const claimed = await q.claimAllSetupTokens(trx);
      if (!claimed.some((row) => row.token_hash === match)) throw new ConflictError(ALREADY_SET_UP);
    },
  );
  deps.log.info({ agentId: admin.id }, 'created the first admin agent through the setup form');
  const session = await startSession(deps, admin.id, meta);
  return { admin, session };
}
