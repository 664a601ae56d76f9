// The settings of an email inbox (docs/email.md): its IMAP and SMTP servers and how replies
// thread. Like every inbox config, a field with a default may be left out of a request (the
// default is filled in) and is always present in a response; each `title` names an OpenAPI component.
import { Type } from 'typebox';
import { StringEnum } from '../http/schemas.ts';
import { SECRET_MASK } from '../security/encryption.ts';

const strict = { additionalProperties: false } as const;
const Defaulted = Type.Optional;

const TlsMode = StringEnum(['none', 'starttls', 'tls'] as const, { description: 'none | starttls | tls' });
const Host = Type.String({ minLength: 1, maxLength: 253, pattern: '^[^\\s/:@]+$', description: 'Host name or IP address' });
const Port = Type.Integer({ minimum: 1, maximum: 65535 });
const Username = Defaulted(Type.String({ maxLength: 320, default: '' }));
const Password = Defaulted(
  Type.String({
    maxLength: 1000,
    default: '',
    description: `Stored encrypted; answered as "${SECRET_MASK}". Send the mask back, or leave it out on update, to keep it.`,
  }),
);

/** What every mail server has: where it is, how to log in, how to secure the connection. */
const serverFields = {
  host: Host,
  port: Port,
  username: Username,
  password: Password,
  tls: TlsMode,
  tls_skip_verify: Defaulted(
    Type.Boolean({ default: false, description: 'Accept a certificate that does not verify (self-signed test servers only)' }),
  ),
};

export const ImapConfig = Type.Object(
  {
    ...serverFields,
    mailbox: Defaulted(Type.String({ minLength: 1, maxLength: 200, default: 'INBOX' })),
    poll_interval_seconds: Defaulted(
      Type.Integer({
        minimum: 10,
        maximum: 86400,
        default: 60,
        description: 'How often the mailbox is checked when the server has no IDLE (and the longest a new mail waits otherwise)',
      }),
    ),
    import_since_hours: Defaulted(
      Type.Integer({
        minimum: 0,
        maximum: 8760,
        default: 24,
        description: 'On the first connection to a mailbox, the mails received in these last hours are taken in; older ones are left alone',
      }),
    ),
  },
  { ...strict, title: 'ImapConfig' },
);

export const SmtpConfig = Type.Object(
  {
    ...serverFields,
    max_connections: Type.Optional(Type.Integer({ minimum: 1, maximum: 100 })),
  },
  { ...strict, title: 'SmtpConfig' },
);

export const EmailConfig = Type.Object(
  {
    imap: ImapConfig,
    smtp: SmtpConfig,
    plus_addressing: Defaulted(
      Type.Boolean({
        default: false,
        description:
          'Replies go out with Reply-To local+conv-<conversation uuid>@domain, so a reply finds its conversation even without headers (the mailbox must accept plus addresses: Gmail and Microsoft 365 do)',
      }),
    ),
    reopen_window_days: Defaulted(
      Type.Integer({
        minimum: 1,
        maximum: 3650,
        default: 30,
        description:
          'A reply to a conversation resolved less than this many days ago reopens it; later, it starts a new conversation linked to the old one',
      }),
    ),
    signature: Defaulted(
      Type.String({ maxLength: 10000, default: '', description: 'HTML appended to every reply sent from this inbox (sanitised)' }),
    ),
  },
  { ...strict, title: 'EmailInboxConfig' },
);
