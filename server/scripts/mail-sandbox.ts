// A mail sandbox for trying the email channel on one machine (README, "Email"): a real IMAP
// server (Debian's Dovecot, mailbox `support`) and an SMTP server that files every mail it
// receives into that Dovecot. Mail to support@example.test lands in INBOX, where an email inbox
// of Parley reads it; mail to anyone else (Parley's replies to customers) lands in the folder
// `Customers` and is printed here, as is Parley's own mail to agents (invitations, password
// resets: SMTP_URL=smtp://127.0.0.1:2525). Nothing leaves the machine.
//
//   npm run mail-sandbox        (IMAP on 127.0.0.1:1143, SMTP on 127.0.0.1:2525; Ctrl-C stops it)
//
// MAIL_SANDBOX_IMAP_PORT / MAIL_SANDBOX_SMTP_PORT choose other ports (0: any free one). The
// first line printed is JSON with the ports and the IMAP login, for scripts.
import { existsSync } from 'node:fs';
import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { DOVECOT, startDovecot } from '../test/dovecot.ts';

export const SANDBOX_SUPPORT_ADDRESS = 'support@example.test';
const CUSTOMERS_FOLDER = 'Customers';

function portFrom(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const port = Number(raw);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`${name} must be a port number (0 for any free one)`);
  return port;
}

if (!existsSync(DOVECOT)) {
  process.stderr.write(`The sandbox needs Dovecot (${DOVECOT}): sudo apt-get install dovecot-imapd\n`);
  process.exit(1);
}

const dovecot = await startDovecot({ port: portFrom('MAIL_SANDBOX_IMAP_PORT', 1143) });
await dovecot.createMailbox(CUSTOMERS_FOLDER);

/** Files one received mail: INBOX when it is for support, the Customers folder otherwise. */
async function file(raw: Buffer, recipients: string[]): Promise<void> {
  // support@… or a plus address of it (support+conv-…@…); everyone else is a customer.
  const isSupport = (address: string) => /^support(\+[^@]*)?@/i.test(address);
  const forSupport = recipients.some(isSupport);
  const forOthers = recipients.filter((address) => !isSupport(address));
  if (forSupport) await dovecot.append(raw);
  if (forOthers.length > 0) {
    await dovecot.append(raw, { mailbox: CUSTOMERS_FOLDER });
    const parsed = await simpleParser(raw);
    process.stdout.write(
      `\n── to ${forOthers.join(', ')}: ${parsed.subject ?? '(no subject)'}\n${(parsed.text ?? '').trim().slice(0, 2000)}\n`,
    );
  }
}

const smtp = new SMTPServer({
  authOptional: true,
  disabledCommands: ['STARTTLS'],
  size: 50 * 1024 * 1024,
  logger: false,
  onData(stream, session, callback) {
    const chunks: Buffer[] = [];
    stream.on('data', (chunk: Buffer) => chunks.push(chunk));
    stream.on('end', () => {
      const recipients = session.envelope.rcptTo.map((rcpt) => rcpt.address);
      file(Buffer.concat(chunks), recipients).then(
        () => callback(),
        (error: unknown) => callback(Object.assign(new Error(`could not file the mail: ${String(error)}`), { responseCode: 451 })),
      );
    });
  },
});
const smtpPort = await new Promise<number>((resolve, reject) => {
  smtp.once('error', reject);
  smtp.listen(portFrom('MAIL_SANDBOX_SMTP_PORT', 2525), '127.0.0.1', () => {
    const address = smtp.server.address();
    resolve(typeof address === 'object' && address ? address.port : 0);
  });
});

process.stdout.write(
  `${JSON.stringify({ imap: { host: '127.0.0.1', port: dovecot.port, username: dovecot.user, password: dovecot.password }, smtp: { host: '127.0.0.1', port: smtpPort } })}\n`,
);
process.stdout.write(
  `Mail sandbox: IMAP 127.0.0.1:${dovecot.port} (user ${dovecot.user}, password ${dovecot.password}, tls none), SMTP 127.0.0.1:${smtpPort} (no auth, tls none).\nMail to ${SANDBOX_SUPPORT_ADDRESS} lands in INBOX; replies to customers are printed here and kept in the folder ${CUSTOMERS_FOLDER}.\nParley's mail to agents (invitations, password resets) is printed here too: start Parley with SMTP_URL=smtp://127.0.0.1:${smtpPort} MAIL_FROM='Parley <parley@example.test>'.\n`,
);

let stopping = false;
async function stop(): Promise<void> {
  if (stopping) return;
  stopping = true;
  await new Promise<void>((resolve) => smtp.close(() => resolve()));
  await dovecot.stop();
  process.exit(0);
}
process.on('SIGINT', () => void stop());
process.on('SIGTERM', () => void stop());
