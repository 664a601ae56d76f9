// Who a single sign-on provider may sign in (docs/api.md, "Single sign-on (OIDC)"): the one owner
// of that rule. An agent holding `oidc:manage` can point a provider at an identity provider it
// runs itself, which vouches for any email it likes; so a provider signs in only agents whose
// permissions are all held by the agent who last set what makes it trustworthy (its issuer,
// client id or client secret: `configured_by`). An Admin's provider signs anyone in; a provider
// whose configurer is gone or disabled signs nobody in. On top of that, each agent is bound to
// the provider account (`sub`) it first signed in with: another account claiming its email later
// is refused, and so is that account claiming another agent's. The rule holds for the session's
// life: a session opened through a provider is ended when it is next verified (auth.service.ts,
// verifySession) once the configurer no longer holds every permission of its agent.
import { activeAgentPermissions, vouchesFor } from '../auth/auth.service.ts';
import type { AppDeps } from '../deps.ts';
import { PermissionError } from '../errors.ts';
import * as q from './oidc.queries.ts';

/** What makes a provider's sign-ins trustworthy: where the ID tokens come from, and the client they are for. */
interface Source {
  provider_url: string;
  client_id: string;
}

/**
 * Whether a save makes the caller the provider's configurer: it creates the provider, changes its
 * issuer or client id, or sends a client secret (even the same one: typing the secret is vouching).
 */
export function vouches(current: Source | null, next: Source, secretGiven: boolean): boolean {
  return current === null || secretGiven || !sameSource(current, next);
}

/** Accounts (`sub`) belong to an issuer, and with pairwise subjects to a client: bindings survive only when both stay. */
export function sameSource(current: Source, next: Source): boolean {
  return current.provider_url === next.provider_url && current.client_id === next.client_id;
}

const TAKEN = 'This provider account already signs in another agent: ask an administrator';
const NOBODY =
  'This single sign-on provider signs nobody in: no enabled agent vouches for it. An administrator must enter its client secret again';
const BEYOND =
  'This single sign-on provider cannot sign in this agent: the agent holds permissions that the agent who configured the provider does not. Sign in with your password, or ask an administrator';

/**
 * Refuses (403) a sign-in through this provider of an agent holding (or, when provisioned, about to
 * hold) `permissions`, unless the provider's configurer, as it is now, holds every one of them.
 */
export async function assertMaySignIn(
  deps: AppDeps,
  provider: { configured_by: number | null },
  permissions: Iterable<string>,
): Promise<void> {
  if (await vouchesFor(deps, provider.configured_by, permissions)) return;
  const configurer = provider.configured_by === null ? null : await activeAgentPermissions(deps, provider.configured_by);
  throw new PermissionError(configurer === null ? NOBODY : BEYOND);
}

/**
 * Binds the agent to the provider account on its first sign-in through this provider; afterwards
 * only that account signs it in there, and that account signs in no other agent (403 otherwise).
 * A binding of a deleted agent gives way. Two first sign-ins at once: the lock cannot hold rows
 * not yet there, so the insert gives way to the other's and the bindings are judged again.
 */
export async function bindIdentity(deps: AppDeps, providerId: number, agentId: number, subject: string): Promise<void> {
  await deps.db.transaction().execute(async (trx) => {
    for (let attempt = 0; attempt < 2; attempt += 1) {
      const rows = await q.lockIdentities(trx, providerId, agentId, subject);
      const own = rows.find((r) => r.user_id === agentId);
      if (own && own.subject !== subject)
        throw new PermissionError(
          'This agent signs in through this provider with another account: sign in with that account, or ask an administrator',
        );
      if (own) return;
      const other = rows.find((r) => r.subject === subject);
      if (other && !other.user_deleted) throw new PermissionError(TAKEN);
      if (other) await q.deleteIdentity(trx, providerId, other.user_id);
      if (await q.insertIdentity(trx, providerId, agentId, subject, deps.clock.now())) return;
    }
    // A binding made concurrently and gone again before it could be read: refused, never a 500.
    throw new PermissionError(TAKEN);
  });
}
