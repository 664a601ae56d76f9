// System mail: what Parley itself mails to agents (invitations, password resets, notifications),
// through the SMTP server of SMTP_URL, from MAIL_FROM. A mail is a durable job
// (`system_mail.send`), enqueued in the transaction of the change that causes it and retried
// with backoff while the SMTP server fails; nothing is sent from a request.
//
// A job row is kept a week and its payload is readable by anyone who reads the database: the
// values that carry a secret (a set-password link holds its token) travel `sealed`, encrypted
// with SECRET_KEY (AES-256-GCM, security/encryption.ts), and are opened only by the handler that
// sends. The job runner logs a job's id, kind and error, never its payload.
import type { SMTPTransportOptions } from 'nodemailer';
import type { Config } from '../config.ts';
import type { DB } from '../db/database.ts';
import type { AppDeps } from '../deps.ts';
import { DataError } from '../errors.ts';
import { type JobContext, PermanentJobError } from '../jobs/jobs.runner.ts';
import { enqueueJob } from '../jobs/jobs.service.ts';
import { decryptSecret, encryptSecret } from '../security/encryption.ts';
import { renderSystemMail, SYSTEM_MAIL_TEMPLATES, type SystemMailTemplate, type TemplateValues } from './system-mail.templates.ts';

export type { SystemMailTemplate } from './system-mail.templates.ts';

export const SYSTEM_MAIL_JOB = 'system_mail.send';
/** Attempts of one mail: with the runner's backoff (10 s doubling, full jitter) they span about 20 minutes. */
const MAX_ATTEMPTS = 8;

export type SystemMailVariable = 'SMTP_URL' | 'MAIL_FROM';

export interface SystemMailStatus {
  configured: boolean;
  /** The variables still to set. */
  missing: SystemMailVariable[];
}

export function systemMailStatus(config: Pick<Config, 'smtp' | 'mailFrom'>): SystemMailStatus {
  const missing: SystemMailVariable[] = [
    ...(config.smtp ? [] : (['SMTP_URL'] as const)),
    ...(config.mailFrom ? [] : (['MAIL_FROM'] as const)),
  ];
  return { configured: missing.length === 0, missing };
}

/** Throws the 422 naming the unset variables when system mail is not configured. */
export function assertSystemMail(config: Pick<Config, 'smtp' | 'mailFrom'>, what: string): void {
  const { missing } = systemMailStatus(config);
  if (missing.length > 0) {
    throw new DataError(
      `${what} needs system mail, which is not configured: set ${missing.join(' and ')} (docs/operations.md, "System mail")`,
    );
  }
}

export interface SystemMail {
  to: string;
  template: SystemMailTemplate;
  /** Values the job row may show (the agent's name…). */
  values: TemplateValues;
  /** Values that are secrets (a link with a token): kept encrypted in the job row. */
  sealed?: TemplateValues;
  /** A mail about something that ends (a link's expiry): not sent after this. */
  notAfter?: Date;
}

/** The job of one mail (for writers that insert many jobs in one statement: notifications). */
export function systemMailJob(config: Pick<Config, 'secretKey'>, mail: SystemMail) {
  return {
    kind: SYSTEM_MAIL_JOB,
    maxAttempts: MAX_ATTEMPTS,
    payload: {
      to: mail.to,
      template: mail.template,
      values: mail.values,
      ...(mail.sealed ? { sealed: encryptSecret(config.secretKey, JSON.stringify(mail.sealed)) } : {}),
      ...(mail.notAfter ? { not_after: mail.notAfter.toISOString() } : {}),
    },
  };
}

/** Records the mail as a job in `trx`, the transaction of the change that causes it. */
export async function enqueueSystemMail(deps: Pick<AppDeps, 'jobSignals' | 'config'>, trx: DB, mail: SystemMail): Promise<void> {
  await enqueueJob(deps, trx, systemMailJob(deps.config, mail));
}

/** A job payload, parsed (it comes from the database: never cast). */
function parsePayload(payload: Record<string, unknown>) {
  const { to, template, values, sealed, not_after: notAfter } = payload;
  if (typeof to !== 'string' || to === '') throw new PermanentJobError('system mail job without a recipient');
  if (typeof template !== 'string' || !(SYSTEM_MAIL_TEMPLATES as readonly string[]).includes(template)) {
    throw new PermanentJobError('system mail job with an unknown template');
  }
  if (typeof values !== 'object' || values === null || Array.isArray(values)) throw new PermanentJobError('system mail job without values');
  const plain = stringValues(values as Record<string, unknown>);
  if (sealed !== undefined && typeof sealed !== 'string') throw new PermanentJobError('system mail job with malformed sealed values');
  if (notAfter !== undefined && (typeof notAfter !== 'string' || Number.isNaN(Date.parse(notAfter)))) {
    throw new PermanentJobError('system mail job with a malformed not_after');
  }
  return { to, template: template as SystemMailTemplate, values: plain, sealed, notAfter: notAfter ? new Date(notAfter) : null };
}

function stringValues(object: Record<string, unknown>): TemplateValues {
  const out: TemplateValues = {};
  for (const [key, value] of Object.entries(object)) if (typeof value === 'string') out[key] = value;
  return out;
}

function openSealed(secretKey: Buffer, sealed: string): TemplateValues {
  try {
    const parsed: unknown = JSON.parse(decryptSecret(secretKey, sealed));
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new Error('not an object');
    return stringValues(parsed as Record<string, unknown>);
  } catch {
    // Written under another SECRET_KEY, or altered: no retry can open it.
    throw new PermanentJobError('the sealed values of a system mail could not be opened (was SECRET_KEY changed?)');
  }
}

export function smtpTransportOptions(config: Config): SMTPTransportOptions {
  const smtp = config.smtp;
  if (!smtp) throw new PermanentJobError('SMTP_URL is not set: system mail cannot be sent');
  const timeoutMs = config.emailTimeoutSeconds * 1000;
  return {
    host: smtp.host,
    port: smtp.port,
    secure: smtp.secure,
    ...(smtp.username !== '' ? { auth: { user: smtp.username, pass: smtp.password } } : {}),
    tls: { minVersion: 'TLSv1.2' },
    connectionTimeout: timeoutMs,
    greetingTimeout: timeoutMs,
    socketTimeout: timeoutMs,
    dnsTimeout: timeoutMs,
    // Nothing of a session is logged: no addresses, no credentials, no content.
    logger: false,
    debug: false,
  };
}

/** The `system_mail.send` job: renders the template and hands it to SMTP_URL's server. */
export async function sendSystemMail(deps: AppDeps, payload: Record<string, unknown>, job: JobContext): Promise<void> {
  const mail = parsePayload(payload);
  if (mail.notAfter && deps.clock.now() >= mail.notAfter) {
    deps.log.info({ jobId: job.id, template: mail.template }, 'system mail not sent: what it was about has expired');
    return;
  }
  const from = deps.config.mailFrom;
  if (!from) throw new PermanentJobError('MAIL_FROM is not set: system mail cannot be sent');
  const options = smtpTransportOptions(deps.config);
  const values = { ...mail.values, ...(mail.sealed ? openSealed(deps.config.secretKey, mail.sealed) : {}) };
  const rendered = renderSystemMail(mail.template, values);
  const nodemailer = (await import('nodemailer')).default;
  const transport = nodemailer.createTransport(options);
  try {
    await transport.sendMail({ from, to: mail.to, subject: rendered.subject, text: rendered.text, html: rendered.html });
  } catch (error) {
    // A 5xx answer (unknown recipient, refused sender) is final; the rest (4xx, network) is retried.
    const code = (error as { responseCode?: unknown }).responseCode;
    if (typeof code === 'number' && code >= 500 && code < 600) {
      throw new PermanentJobError(`the SMTP server refused the mail (${code})`);
    }
    throw new Error(`could not send system mail: ${error instanceof Error ? error.message : String(error)}`);
  } finally {
    transport.close();
  }
  deps.log.info({ jobId: job.id, template: mail.template }, 'system mail sent');
}
