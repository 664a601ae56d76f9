// Invitations and password resets: single-use links that let an agent choose a password
// (docs/api.md, "Invitations and password reset"). A token is 32 random bytes; the database keeps
// only its sha256, the mailed link is the one place it exists in clear, and the mail job carries
// that link sealed (system-mail/system-mail.service.ts). Using a link is a conditional update
// that only one request wins.
//
// A reset request answers the same for every address, known or not, and at the same pace: it
// only enqueues `agents.password_reset_request`, whose handler looks the address up, makes the
// token and enqueues the mail. No lookup, no token and no SMTP happen in the request.
import { invalidateCredentials } from '../auth/credential-cache.ts';
import { type AuditActor, recordAudit } from '../audit/audit.service.ts';
import type { DB } from '../db/database.ts';
import type { AppDeps } from '../deps.ts';
import { DataError, InputError, NotFoundError } from '../errors.ts';
import type { JobContext } from '../jobs/jobs.runner.ts';
import { enqueueJob } from '../jobs/jobs.service.ts';
import { hashSecret, randomToken, sha256 } from '../security/hashing.ts';
import { assertSystemMail, enqueueSystemMail, systemMailStatus } from '../system-mail/system-mail.service.ts';
import { endSessionsOf } from './agents.queries.ts';
import * as q from './password-tokens.queries.ts';

export const INVITATION_TTL_MS = 7 * 24 * 3600 * 1000;
export const PASSWORD_RESET_TTL_MS = 3600 * 1000;
/** Reset mails one agent is sent per hour at most; further requests are answered alike and mail nothing. */
export const RESET_MAILS_PER_HOUR = 3;
export const PASSWORD_RESET_REQUEST_JOB = 'agents.password_reset_request';

const INVALID_LINK = 'This link is invalid, expired or already used; ask for a new one';

export interface Invitation {
  agent_id: number;
  expires_at: Date;
}

interface Invitee {
  id: number;
  email: string;
  first_name: string;
  last_name: string;
}

function fullName(agent: { first_name: string; last_name: string }): string {
  return `${agent.first_name} ${agent.last_name}`.trim();
}

function setPasswordLink(deps: AppDeps, token: string): string {
  return `${deps.config.baseUrl}/set-password?token=${encodeURIComponent(token)}`;
}

/** Makes a token of `kind` for the agent (the older ones of that kind die) and enqueues its mail, all in `trx`. */
async function issueToken(
  deps: AppDeps,
  trx: DB,
  agent: Invitee,
  kind: q.PasswordTokenKind,
  values: Record<string, string>,
): Promise<Date> {
  const now = deps.clock.now();
  const expiresAt = new Date(now.getTime() + (kind === 'invitation' ? INVITATION_TTL_MS : PASSWORD_RESET_TTL_MS));
  const token = randomToken(32);
  await q.deleteDeadTokens(trx, now);
  await q.retireTokensOf(trx, agent.id, [kind], now);
  const email = agent.email.toLowerCase();
  await q.insertPasswordToken(trx, { token_hash: sha256(token), user_id: agent.id, kind, email, created_at: now, expires_at: expiresAt });
  await enqueueSystemMail(deps, trx, {
    to: agent.email,
    template: kind,
    values: { name: fullName(agent) || agent.email, site: deps.config.baseUrl, ...values },
    sealed: { link: setPasswordLink(deps, token) },
    notAfter: expiresAt,
  });
  return expiresAt;
}

/** Invites an agent in `trx`: an invitation mail (the agent's older invitations die) and the audit entry. */
async function inviteIn(deps: AppDeps, trx: DB, agent: Invitee, actor: AuditActor): Promise<Date> {
  const expiresAt = await issueToken(deps, trx, agent, 'invitation', { inviter: actor.name || 'An administrator' });
  await recordAudit(
    trx,
    actor,
    { action: 'agent.invited', resource: { type: 'agent', id: agent.id, name: fullName(agent) }, changes: { email: [null, agent.email] } },
    deps.clock.now(),
  );
  return expiresAt;
}

/** POST /agents/{id}/invite: a new invitation mail. */
export async function inviteAgent(deps: AppDeps, actor: AuditActor, id: number): Promise<Invitation> {
  assertSystemMail(deps.config, 'Sending an invitation');
  const expiresAt = await deps.db.transaction().execute(async (trx) => {
    const agent = await q.lockAgentForInvitation(trx, id);
    if (!agent?.email) throw new NotFoundError('Agent not found');
    if (!agent.enabled) throw new DataError('This agent is disabled: enable it before inviting it');
    // An invitation sets a first password; one set already is changed by its owner ("Forgot password?").
    if (agent.has_password)
      throw new DataError('This agent has set a password already: they can use "Forgot password?" on the sign-in page');
    const { has_password: _, ...invitee } = agent;
    return inviteIn(deps, trx, { ...invitee, email: agent.email }, actor);
  });
  return { agent_id: id, expires_at: expiresAt };
}

/**
 * For POST /agents without a password: the hook createAgent runs in the new agent's transaction.
 * With system mail configured, an enabled agent is invited; otherwise the agent is created as
 * before (single sign-on and API-only agents need no password) and can be invited later.
 */
export function invitationOnCreate(deps: AppDeps, actor: AuditActor): (trx: DB, agent: Invitee & { enabled: boolean }) => Promise<void> {
  return async (trx, agent) => {
    if (!agent.enabled || !systemMailStatus(deps.config).configured) return;
    await inviteIn(deps, trx, agent, actor);
  };
}

/** POST /auth/password-reset: enqueues the request (the same work for any address). */
export async function requestPasswordReset(deps: AppDeps, email: string): Promise<void> {
  assertSystemMail(deps.config, 'Password reset');
  const address = email.trim().toLowerCase();
  // One pending request per address: a burst of requests for it makes one mail.
  await enqueueJob(deps, deps.db, {
    kind: PASSWORD_RESET_REQUEST_JOB,
    payload: { email: address },
    dedupeKey: `password_reset:${sha256(address)}`,
    maxAttempts: 5,
  });
}

/** The `agents.password_reset_request` job: a reset link for the agent with this address, if there is one. */
export async function preparePasswordReset(deps: AppDeps, payload: Record<string, unknown>, _job: JobContext): Promise<void> {
  const email = payload['email'];
  if (typeof email !== 'string' || email === '' || email.length > 254) return;
  await deps.db.transaction().execute(async (trx) => {
    const agent = await q.findAgentForReset(trx, email);
    if (!agent?.email) return;
    const hourAgo = new Date(deps.clock.now().getTime() - 3600 * 1000);
    if ((await q.countTokensSince(trx, agent.id, 'password_reset', hourAgo)) >= RESET_MAILS_PER_HOUR) return;
    await issueToken(deps, trx, { ...agent, email: agent.email }, 'password_reset', {});
  });
}

/**
 * POST /auth/password-reset/confirm: sets the password with an invitation or reset link, ends
 * every session of the agent (on every instance), and burns the link and the agent's other ones.
 */
export async function confirmPasswordReset(
  deps: AppDeps,
  input: { token: string; password: string },
  origin: Pick<AuditActor, 'ip' | 'userAgent' | 'requestId'>,
): Promise<void> {
  const tokenHash = sha256(input.token);
  // Guesses cost no password hash; the claim below decides.
  if (!(await q.liveTokenExists(deps.db, tokenHash, deps.clock.now()))) throw new InputError(INVALID_LINK);
  const passwordHash = await hashSecret(input.password);
  const agentId = await deps.db.transaction().execute(async (trx) => {
    const now = deps.clock.now();
    const claimed = await q.claimPasswordToken(trx, tokenHash, now);
    if (!claimed) throw new InputError(INVALID_LINK);
    await q.setPasswordHash(trx, claimed.user_id, passwordHash, now);
    await endSessionsOf(trx, claimed.user_id);
    await q.retireTokensOf(trx, claimed.user_id, ['invitation', 'password_reset'], now);
    const name = fullName(claimed);
    const actor: AuditActor = { type: 'agent', id: claimed.user_id, name: name || (claimed.email ?? ''), ...origin };
    await recordAudit(
      trx,
      actor,
      { action: 'auth.password_reset', resource: { type: 'agent', id: claimed.user_id, name }, changes: { via: [null, claimed.kind] } },
      now,
    );
    return claimed.user_id;
  });
  await invalidateCredentials(deps, agentId);
}
