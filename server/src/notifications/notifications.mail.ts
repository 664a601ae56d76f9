// Notifications by email (docs/api.md, "Working together" → "Notifications"), through the
// system mailer (system-mail/): one mail per notification, enqueued by the fan-out in the
// notification's own transaction, or, for agents who chose `email_digest`, one digest per
// 15 minutes at most. Each links to the conversation in the web app; no mail carries a secret.
// Without SMTP_URL and MAIL_FROM no mail is made at all (the fan-out leaves email out).
import type { Config } from '../config.ts';
import type { AppDeps } from '../deps.ts';
import { announceJob } from '../jobs/jobs.service.ts';
import { SYSTEM_MAIL_JOB, systemMailJob, systemMailStatus } from '../system-mail/system-mail.service.ts';
import type { TemplateValues } from '../system-mail/system-mail.templates.ts';
import { insertJobs, mailboxesOf } from './notifications.fanout.queries.ts';
import { agentsWithDueDigest, claimDigests, conversationUuids } from './notifications.tasks.queries.ts';

/** A digest gathers what waited this long: at most one digest per agent per this interval. */
export const DIGEST_INTERVAL_MS = 15 * 60_000;
/** Agents served by one run of the digest task (the next run takes the rest). */
const DIGEST_AGENTS_PER_RUN = 200;
/** Lines of one digest (the rest are counted, not listed). */
const DIGEST_MAX_LINES = 50;

export function conversationLink(config: Pick<Config, 'baseUrl'>, uuid: string): string {
  return `${config.baseUrl}/conversations/${uuid}`;
}

/** The values of the `notification` template. */
export function notificationMail(
  config: Pick<Config, 'baseUrl'>,
  input: { name: string; title: string; excerpt: string; conversationUuid: string },
): TemplateValues {
  return {
    name: input.name,
    site: config.baseUrl,
    title: input.title,
    excerpt: input.excerpt,
    link: conversationLink(config, input.conversationUuid),
  };
}

/**
 * The digest task (every minute, on every instance with workers): each agent with a pending
 * notification 15 minutes old gets one mail listing all their pending notifications, which are
 * marked sent in the same transaction as the mail's job. A lock per agent keeps two instances
 * from mailing the same agent twice. Returns how many digests were enqueued.
 */
export async function sendNotificationDigests(deps: AppDeps): Promise<number> {
  if (!systemMailStatus(deps.config).configured) return 0;
  const cutoff = new Date(deps.clock.now().getTime() - DIGEST_INTERVAL_MS);
  const candidates = await agentsWithDueDigest(deps.db, cutoff, DIGEST_AGENTS_PER_RUN);
  if (candidates.length === 0) return 0;
  const sent = await deps.db.transaction().execute(async (trx) => {
    const claimed = await claimDigests(trx, candidates, cutoff);
    if (claimed.length === 0) return 0;
    const uuids = await conversationUuids(trx, [...new Set(claimed.map((row) => row.conversation_id))]);
    const mailboxes = await mailboxesOf(trx, [...new Set(claimed.map((row) => row.agent_id))]);
    const jobs = [];
    for (const mailbox of mailboxes) {
      if (!mailbox.email) continue;
      const own = claimed.filter((row) => row.agent_id === mailbox.id).sort((a, b) => a.created_at.getTime() - b.created_at.getTime());
      const lines = own.slice(0, DIGEST_MAX_LINES).map((row) => {
        const uuid = uuids.get(row.conversation_id);
        return uuid ? `• ${row.title}\n  ${conversationLink(deps.config, uuid)}` : `• ${row.title}`;
      });
      if (own.length > DIGEST_MAX_LINES) lines.push(`… and ${own.length - DIGEST_MAX_LINES} more`);
      const values: TemplateValues = {
        name: `${mailbox.first_name} ${mailbox.last_name}`.trim() || mailbox.email,
        site: deps.config.baseUrl,
        count: String(own.length),
        items: lines.join('\n'),
        link: `${deps.config.baseUrl}/`,
      };
      jobs.push(systemMailJob(deps.config, { to: mailbox.email, template: 'notification_digest', values }));
    }
    await insertJobs(trx, jobs);
    return jobs.length;
  });
  if (sent > 0) announceJob(deps, SYSTEM_MAIL_JOB, null, false);
  return sent;
}
