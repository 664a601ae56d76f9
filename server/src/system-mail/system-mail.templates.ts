// Every string of the mail Parley sends to agents (invitations, password resets, notifications
// and their digests), in one place: a subject, a plain-text body and a simple HTML body per template. Values
// are filled in by name; in the HTML they are escaped.

export const SYSTEM_MAIL_TEMPLATES = ['invitation', 'password_reset', 'notification', 'notification_digest'] as const;
export type SystemMailTemplate = (typeof SYSTEM_MAIL_TEMPLATES)[number];

/** The values a template reads: `name` (the agent's), `link` (the set-password link), and per template some more. */
export type TemplateValues = Record<string, string>;

interface TemplateText {
  subject: string;
  /** Paragraphs; `{name}`-style placeholders. The link paragraph is `{link}` alone. */
  paragraphs: readonly string[];
}

const PRODUCT = 'Parley';

const TEXTS: Record<SystemMailTemplate, TemplateText> = {
  invitation: {
    subject: `You are invited to ${PRODUCT}`,
    paragraphs: [
      'Hello {name},',
      `{inviter} invited you to ${PRODUCT}, the help desk at {site}. Choose your password to sign in:`,
      '{link}',
      'This link works once, for 7 days. If you did not expect this invitation, ignore this mail.',
    ],
  },
  password_reset: {
    subject: `Reset your ${PRODUCT} password`,
    paragraphs: [
      'Hello {name},',
      `Someone asked to reset the password of your ${PRODUCT} account at {site}. Choose a new password here:`,
      '{link}',
      'This link works once, for 1 hour. If you did not ask for it, ignore this mail: your password stays as it is.',
    ],
  },
  // Notifications (notifications/notifications.mail.ts): `title`, `excerpt`, `link` to the conversation.
  notification: {
    subject: '{title}',
    paragraphs: ['Hello {name},', '{title}', '{excerpt}', '{link}', 'Your notification settings in {site} choose what is mailed to you.'],
  },
  // `items`: one line per notification (its title and link); `link` to the web app.
  notification_digest: {
    subject: `${PRODUCT} notifications: {count} new`,
    paragraphs: [
      'Hello {name},',
      'Since the last mail:',
      '{items}',
      '{link}',
      'Your notification settings in {site} choose what is mailed to you.',
    ],
  },
};

export interface RenderedMail {
  subject: string;
  text: string;
  html: string;
}

function fill(text: string, values: TemplateValues, encode: (value: string) => string): string {
  return text.replace(/\{([a-z_]+)\}/g, (whole, key: string) => (Object.hasOwn(values, key) ? encode(values[key] ?? '') : whole));
}

function escapeHtml(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
}

/** Subject, plain text and HTML of a template with its values. */
export function renderSystemMail(template: SystemMailTemplate, values: TemplateValues): RenderedMail {
  const { paragraphs } = TEXTS[template];
  const plain = (value: string) => value;
  const subject = fill(TEXTS[template].subject, values, plain);
  // A paragraph that is one value left empty (a notification without an excerpt) is left out.
  const shown = paragraphs.filter((p) => !/^\{[a-z_]+\}$/.test(p) || (values[p.slice(1, -1)] ?? '') !== '');
  const text = `${shown.map((p) => fill(p, values, plain)).join('\n\n')}\n\n-- \n${PRODUCT}\n`;
  // Lines inside a value (a digest's list) stay lines in the HTML.
  const htmlValue = (value: string) => escapeHtml(value).replace(/\n/g, '<br>\n');
  const html = [
    '<!doctype html><html><body style="font-family: sans-serif; line-height: 1.5; color: #1f2328">',
    ...shown.map((p) =>
      p === '{link}'
        ? `<p><a href="${escapeHtml(values['link'] ?? '')}" style="display: inline-block; padding: 8px 16px; background: #2563eb; color: #ffffff; text-decoration: none; border-radius: 6px">${escapeHtml(subject)}</a></p><p style="font-size: 12px; color: #57606a">${escapeHtml(values['link'] ?? '')}</p>`
        : `<p>${fill(escapeHtml(p), values, htmlValue)}</p>`,
    ),
    `<p style="color: #57606a">— ${PRODUCT}</p>`,
    '</body></html>',
  ].join('\n');
  return { subject, text, html };
}
