// Shared by the invitation and password-reset tests (server/src/agents/password-tokens.*.test.ts)
// and their browser tests: an app whose system mail goes to a real test SMTP server, the mail
// jobs run as a worker would, and the set-password link read out of a received mail.
import assert from 'node:assert/strict';
import { simpleParser } from 'mailparser';
import { PASSWORD_RESET_REQUEST_JOB } from '../src/agents/password-tokens.service.ts';
import type { AppDeps, Clock } from '../src/deps.ts';
import { SYSTEM_MAIL_JOB } from '../src/system-mail/system-mail.service.ts';
import { buildTestApp, runDueJobs, type TestApp } from './helpers.ts';
import { type ReceivedMail, startSmtpServer, type TestSmtpServer } from './smtp.ts';

export const MAIL_FROM = 'Parley <parley@example.test>';

/** The environment that sends system mail through `smtp`. */
export function systemMailEnv(smtp: TestSmtpServer): Record<string, string> {
  return { SMTP_URL: `smtp://${smtp.host}:${smtp.port}`, MAIL_FROM };
}

export interface MailApp {
  t: TestApp;
  smtp: TestSmtpServer;
  close(): Promise<void>;
}

/** A test app with system mail through a fresh test SMTP server. */
export async function buildMailApp(options: { clock?: Clock; env?: Record<string, string>; logLines?: string[] } = {}): Promise<MailApp> {
  const smtp = await startSmtpServer();
  const t = await buildTestApp({ ...options, env: { ...systemMailEnv(smtp), ...options.env } });
  return {
    t,
    smtp,
    async close() {
      await t.close();
      await smtp.close();
    },
  };
}

/** Runs the due reset requests and system mails, as a worker would; returns how many jobs ran. */
export function deliverSystemMail(deps: AppDeps): Promise<number> {
  return runDueJobs(deps, [PASSWORD_RESET_REQUEST_JOB, SYSTEM_MAIL_JOB]);
}

export interface ReadMail {
  to: string[];
  from: string;
  subject: string;
  text: string;
  html: string;
  /** The set-password link found in the text. */
  link: URL;
  token: string;
}

/** A received system mail, parsed, with the set-password link found in its text (and the same link in its HTML). */
export async function readSystemMail(mail: ReceivedMail): Promise<ReadMail> {
  const parsed = await simpleParser(mail.raw);
  const text = parsed.text ?? '';
  const found = /https?:\/\/\S+\/set-password\?token=[A-Za-z0-9_%-]+/.exec(text);
  assert.ok(found, `a set-password link in the mail:\n${text}`);
  const link = new URL(found[0]);
  const token = link.searchParams.get('token') ?? '';
  assert.ok(token.length >= 43, 'a token of 32 random bytes at least');
  const html = typeof parsed.html === 'string' ? parsed.html : '';
  assert.ok(html.includes(found[0].replace(/&/g, '&amp;')), 'the HTML part holds the same link');
  const from = parsed.from?.text ?? '';
  return { to: mail.rcptTo, from, subject: parsed.subject ?? '', text, html, link, token };
}
