// Background work of one instance: the job runners with every domain's job handlers,
// and the periodic tasks. main.ts starts it after the app listens (unless WORKERS=false)
// and stops it before the database closes.
//
// To add background work, add an entry below, importing from your domain:
// - a job:            `'webhooks.deliver': deliverWebhook,` in jobHandlers, and enqueue it
//                     with enqueueJob(deps, trx, { kind: 'webhooks.deliver', payload }) in the
//                     transaction of the change that causes it; a kind whose handler only
//                     writes through a statement shared with the others running (batched())
//                     and does no I/O of its own also goes in BATCHED_JOB_KINDS;
// - a periodic task:  `{ name: 'reports.rollup', everyMs: 5 * MINUTE, run: rollUpReports },`
//                     in periodicTasks.
import { purgeExpiredAuditEntries } from './audit/audit.retention.ts';
import { placeForAgentJob, placeWaitingConversations, placeTeamJob, releaseAgentJob } from './conversations/assignment.service.ts';
import { wakeSnoozedConversations } from './conversations/conversations.changes.ts';
import { foldConversationCounts } from './conversations/conversations.counts.ts';
import { recordSlaAlerts } from './conversations/conversations.sla.ts';
import type { AppDeps } from './deps.ts';
import { purgeStaleDrafts } from './drafts/drafts.service.ts';
import { PASSWORD_RESET_REQUEST_JOB, preparePasswordReset } from './agents/password-tokens.service.ts';
import { SYSTEM_MAIL_JOB, sendSystemMail } from './system-mail/system-mail.service.ts';
import { type EmailReadersOptions, startEmailReaders } from './email/email.readers.ts';
import { deliverEmailMessage } from './email/email.send.ts';
import { purgeSkippedMails } from './email/email.status.ts';
import { closeEmailTransports } from './email/email.transport.ts';
import { CHANNEL_NAMES, CHANNEL_TABLE, type ChannelName, channelsWith } from './inboxes/channels.ts';
import { deliverLivechatMessage } from './messages/messages.delivery.ts';
import { purgeIdempotencyKeys } from './messages/messages.service.ts';
import { type JobHandler, type JobRunnerOptions, startJobRunner } from './jobs/jobs.runner.ts';
import { type PeriodicTask, type PeriodicTaskOptions, startPeriodicTasks } from './jobs/jobs.scheduler.ts';
import { purgeCompletedJobs, reapLostJobs, startJobWakeRelay } from './jobs/jobs.service.ts';
import { purgeOrphanMedia } from './media/media.service.ts';
import { PUSH_NOTIFICATION_JOB } from './notifications/notifications.schema.ts';
import { PUSH_RETRY_JOB, pushNotification, retryPush } from './push/push.delivery.ts';
import { markAbsentAgentsOffline } from './realtime/presence.ts';
import { pruneDomainEvents } from './realtime/pruning.ts';
import { foldReportRollups } from './reports/reports.service.ts';
import { expireViewers } from './viewers/viewers.service.ts';
import { type DispatcherOptions, startWebhookDispatcher } from './webhooks/webhooks.dispatcher.ts';
import { purgeWebhookDeliveries, reapLostWebhookDeliveries } from './webhooks/webhooks.retention.ts';
import { purgeExpiredWidgetSessions } from './widget/widget.sessions.ts';
import { FAN_OUT_JOB, fanOutNotifications, wakeFanOutOnEventCommits } from './notifications/notifications.fanout.ts';
import { sendNotificationDigests } from './notifications/notifications.mail.ts';
import { purgeOldNotifications } from './notifications/notifications.retention.ts';

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

/** Each channel's sender of agent replies, run as the channel's delivery job (inboxes/channels.ts). */
const DELIVERERS: Record<ChannelName, JobHandler> = { livechat: deliverLivechatMessage, email: deliverEmailMessage };

/** Job kind → handler. Kinds are `<domain>.<verb>`. */
export const jobHandlers: Record<string, JobHandler> = {
  ...Object.fromEntries(CHANNEL_NAMES.map((channel) => [CHANNEL_TABLE[channel].deliveryJob, DELIVERERS[channel]])),
  'conversations.place_for_agent': placeForAgentJob,
  'conversations.release_agent': releaseAgentJob,
  'conversations.place_team': placeTeamJob,
  [PASSWORD_RESET_REQUEST_JOB]: preparePasswordReset,
  [SYSTEM_MAIL_JOB]: sendSystemMail,
  [PUSH_NOTIFICATION_JOB]: pushNotification,
  [PUSH_RETRY_JOB]: retryPush,
  [FAN_OUT_JOB]: fanOutNotifications,
};

/**
 * Kinds whose handlers write through one statement shared by the jobs running together
 * (db/batched.ts), with no I/O of their own: the bookkeeping after each reply. They have a
 * runner of their own, BATCHED_JOB_CONCURRENCY at once, so that a burst of them costs a claim,
 * a statement and a completion per batch instead of per job. With the JOB_CONCURRENCY of the
 * others (4 by default, sized for SMTP), under a burst of replies they trailed by thousands.
 * A failed job's retry and the claims given back at shutdown are still a statement each.
 */
export const BATCHED_JOB_KINDS: readonly string[] = channelsWith('batchedDelivery').map((channel) => CHANNEL_TABLE[channel].deliveryJob);
export const BATCHED_JOB_CONCURRENCY = 256;

/** Notifications are made by a runner of their own, so that slow mail (the other runner's SMTP jobs) never holds them back. */
export const NOTIFICATION_JOB_KINDS: readonly string[] = [FAN_OUT_JOB];
/** Wide, since the jobs running together are fanned out as one batch (notifications.fanout.ts). */
export const NOTIFICATION_JOB_CONCURRENCY = 128;

const batchedHandlers = Object.fromEntries(Object.entries(jobHandlers).filter(([kind]) => BATCHED_JOB_KINDS.includes(kind)));
const notificationHandlers = Object.fromEntries(Object.entries(jobHandlers).filter(([kind]) => NOTIFICATION_JOB_KINDS.includes(kind)));
const otherHandlers = Object.fromEntries(
  Object.entries(jobHandlers).filter(([kind]) => !BATCHED_JOB_KINDS.includes(kind) && !NOTIFICATION_JOB_KINDS.includes(kind)),
);

export const periodicTasks: PeriodicTask[] = [
  // Completed jobs after 7 days; the per-message bookkeeping (deliveries, fan-outs) after one.
  {
    name: 'jobs.purge_completed',
    everyMs: HOUR,
    run: (deps) => purgeCompletedJobs(deps, Object.fromEntries([...BATCHED_JOB_KINDS, FAN_OUT_JOB].map((kind) => [kind, 24 * HOUR]))),
  },
  { name: 'jobs.reap_lost', everyMs: MINUTE, run: reapLostJobs },
  { name: 'conversations.wake_snoozed', everyMs: 30 * SECOND, run: wakeSnoozedConversations },
  // SLA warnings and breaches, each recorded once (a conditional update claims it).
  { name: 'conversations.sla_alerts', everyMs: 30 * SECOND, run: recordSlaAlerts },
  { name: 'reports.fold_rollups', everyMs: 30 * SECOND, run: foldReportRollups },
  // The lists' totals add the pending count changes: folding often keeps them a few rows.
  { name: 'conversations.fold_counts', everyMs: 10 * SECOND, run: foldConversationCounts },
  { name: 'messages.purge_idempotency_keys', everyMs: HOUR, run: purgeIdempotencyKeys },
  { name: 'widget.purge_sessions', everyMs: HOUR, run: purgeExpiredWidgetSessions },
  // The outbox: events older than 3 days that the realtime relay has passed.
  { name: 'realtime.prune_events', everyMs: HOUR, run: pruneDomainEvents },
  // Agents with no live agent socket for 5 minutes become offline.
  { name: 'realtime.absent_agents_offline', everyMs: 30 * SECOND, run: markAbsentAgentsOffline },
  // Round robin: conversations waiting for an agent (capacity freed, agent back online…).
  { name: 'conversations.place_waiting', everyMs: 15 * SECOND, run: (deps) => placeWaitingConversations(deps) },
  // Uploads never attached to a message within a day.
  { name: 'media.purge_orphans', everyMs: HOUR, run: (deps) => purgeOrphanMedia(deps, new Date(deps.clock.now().getTime() - 24 * HOUR)) },
  // Webhook deliveries: succeeded ones after 7 days, the others after 30 (with their attempts).
  { name: 'webhooks.purge_deliveries', everyMs: HOUR, run: purgeWebhookDeliveries },
  // Deliveries whose instance died during their last attempt are left dead.
  { name: 'webhooks.reap_lost', everyMs: MINUTE, run: reapLostWebhookDeliveries },
  // Mails an email inbox passed over (too large, unreadable), listed for admins for 30 days.
  { name: 'email.purge_skipped', everyMs: HOUR, run: purgeSkippedMails },
  // Audit log entries older than AUDIT_RETENTION_DAYS (0: kept forever), in bounded batches.
  { name: 'audit.purge', everyMs: HOUR, run: purgeExpiredAuditEntries },
  // Viewers of instances that stopped without saying so (no refresh for 60 s).
  { name: 'viewers.expire', everyMs: 20 * SECOND, run: expireViewers },
  // Drafts not updated for 15 days.
  { name: 'drafts.purge_stale', everyMs: HOUR, run: purgeStaleDrafts },
  // Notification mail digests: one per agent per 15 minutes at most (a lock per agent across instances).
  { name: 'notifications.send_digests', everyMs: MINUTE, run: sendNotificationDigests },
  // Notifications older than 90 days.
  { name: 'notifications.purge', everyMs: HOUR, run: purgeOldNotifications },
];

export interface Workers {
  stop(): Promise<void>;
}

export function startWorkers(
  deps: AppDeps,
  options: { runner?: JobRunnerOptions; periodic?: PeriodicTaskOptions; webhooks?: DispatcherOptions; email?: EmailReadersOptions } = {},
): Workers {
  const relay = startJobWakeRelay(deps);
  const runner = startJobRunner(deps, otherHandlers, options.runner);
  // The same options (polling, timeouts), but its own width and name.
  const runnerId = options.runner?.runnerId;
  const batchedRunner = startJobRunner(deps, batchedHandlers, {
    ...options.runner,
    concurrency: BATCHED_JOB_CONCURRENCY,
    ...(runnerId ? { runnerId: `${runnerId}:batched` } : {}),
  });
  const notificationRunner = startJobRunner(deps, notificationHandlers, {
    ...options.runner,
    concurrency: NOTIFICATION_JOB_CONCURRENCY,
    ...(runnerId ? { runnerId: `${runnerId}:notifications` } : {}),
  });
  const stopFanOutWakeups = wakeFanOutOnEventCommits(deps);
  const tasks = startPeriodicTasks(deps, periodicTasks, options.periodic);
  // The webhook deliveries have their own claim loop (per-webhook concurrency, leases of a request's length).
  const webhooks = startWebhookDispatcher(deps, options.webhooks);
  // One IMAP reader per enabled email inbox across instances, under a lease.
  const emailReaders = startEmailReaders(deps, options.email);
  return {
    async stop() {
      // Running jobs and webhook requests finish or give their claims back; a running task finishes.
      stopFanOutWakeups();
      await Promise.all([
        runner.stop(),
        batchedRunner.stop(),
        notificationRunner.stop(),
        tasks.stop(),
        relay.stop(),
        webhooks.stop(),
        emailReaders.stop(),
      ]);
      // The SMTP pools, once no job sends through them.
      closeEmailTransports(deps);
    },
  };
}

/** An instance without workers (WORKERS=false) still tells the others about the jobs it enqueues. */
export function startWakeRelayOnly(deps: AppDeps): Workers {
  const relay = startJobWakeRelay(deps);
  const stopFanOutWakeups = wakeFanOutOnEventCommits(deps);
  return {
    async stop() {
      stopFanOutWakeups();
      await relay.stop();
    },
  };
}
