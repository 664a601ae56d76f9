// One message of the thread: the contact's (incoming), an agent's reply (outgoing), a private
// note, or an activity line; attachments (images previewed) and, for email, the envelope.
import { useMemo, useState } from 'react';
import type { Message } from '../../api/client';
import { t } from '../../i18n/t';
import { Avatar } from '../../ui/Avatar';
import { Badge } from '../../ui/Badge';
import { Button } from '../../ui/Button';
import { ago, dateTime, withLocalTimes } from '../inbox/format';
import { holdRemoteImages } from './remoteImages';

/** Who wrote a message, as the thread shows them: a name and, when they have one, a picture. */
export interface Person {
  name: string;
  avatarUrl: string | null;
}

function size(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(0)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

function EmailMeta({ message }: { message: Message }) {
  const meta = message.meta as Partial<Record<'from' | 'to' | 'cc' | 'subject', unknown>>;
  const list = (value: unknown) => (Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string').join(', ') : '');
  const rows: Array<[string, string]> = [
    [t('conversation.email.from'), list(meta.from)],
    [t('conversation.email.to'), list(meta.to)],
    [t('conversation.email.cc'), list(meta.cc)],
    [t('conversation.email.subject'), typeof meta.subject === 'string' ? meta.subject : ''],
  ];
  const shown = rows.filter(([, value]) => value);
  if (shown.length === 0) return null;
  return (
    <dl className="message__email">
      {shown.map(([label, value]) => (
        <div key={label}>
          <dt>{label}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}

/**
 * What the thread does with remote images in the contact's messages: `always` (the contact's
 * `load_remote_images`) loads them; otherwise they wait for "Load images", and `onAlways`, when
 * the agent may change the contact, remembers "always" for this sender.
 */
export interface RemoteImages {
  always: boolean;
  sender: string;
  onAlways: (() => void) | null;
}

/** HTML content; a contact's remote images wait for the agent's "Load images" (remoteImages.ts). */
function HtmlContent({ html, incoming, images }: { html: string; incoming: boolean; images: RemoteImages }) {
  const [loadImages, setLoadImages] = useState(false);
  const held = useMemo(() => (incoming ? holdRemoteImages(html) : { html, loaded: html, held: 0 }), [html, incoming]);
  const load = loadImages || images.always;
  const shown = load ? held.loaded : held.html;
  return (
    <>
      {held.held > 0 && !load ? (
        <div className="message__images-held">
          <span className="muted">{t('conversation.imagesHeld')}</span>
          <Button size="sm" onClick={() => setLoadImages(true)}>
            {t('conversation.loadImages')}
          </Button>
          {images.onAlways ? (
            <Button size="sm" variant="ghost" onClick={images.onAlways}>
              {t('conversation.alwaysLoadImages', { name: images.sender })}
            </Button>
          ) : null}
        </div>
      ) : null}
      {/* Sanitised by the server against its allow-list on the way in (docs/api.md, Input rules). */}
      {/* biome-ignore lint/security/noDangerouslySetInnerHtml: server-sanitised HTML, and the CSP forbids inline script */}
      <div className="message__content" dangerouslySetInnerHTML={{ __html: shown }} />
    </>
  );
}

/** `author`: the contact for an incoming message, else the agent (or the system) who wrote it. */
export function MessageItem({ message, author, images }: { message: Message; author: Person; images: RemoteImages }) {
  if (message.type === 'activity') {
    return (
      <div className="message message--activity">
        <span>{withLocalTimes(message.text_content)}</span> <time dateTime={message.created_at}>{ago(message.created_at)}</time>
      </div>
    );
  }
  const kind = message.private ? 'note' : message.type;
  const name = author.name;
  return (
    <article className={`message message--${kind}`} aria-label={message.private ? t('conversation.private') : name}>
      <header className="message__header">
        <Avatar name={name} src={author.avatarUrl} size="sm" />
        <span className="message__author">{name}</span>
        {message.private ? <Badge tone="warning">{t('conversation.private')}</Badge> : null}
        {message.status === 'pending' ? <Badge>{t('conversation.status.pending')}</Badge> : null}
        {message.status === 'failed' ? <Badge tone="danger">{t('conversation.status.failed')}</Badge> : null}
        <time className="message__time" dateTime={message.created_at} title={dateTime(message.created_at)}>
          {ago(message.created_at)}
        </time>
      </header>
      <EmailMeta message={message} />
      {message.content_type === 'html' ? (
        <HtmlContent html={message.content} incoming={message.type === 'incoming'} images={images} />
      ) : (
        <div className="message__content message__content--text">{message.content}</div>
      )}
      {message.attachments.length > 0 ? (
        <ul className="message__attachments" aria-label={t('conversation.attachments')}>
          {message.attachments
            .filter((a) => a.disposition === 'attachment' || !a.content_id)
            .map((a) => (
              <li key={a.uuid}>
                <a href={a.url} target="_blank" rel="noreferrer noopener" className="attachment">
                  {a.content_type.startsWith('image/') ? (
                    <img src={a.url} alt={a.name} className="attachment__preview" loading="lazy" />
                  ) : null}
                  <span className="attachment__name">{a.name}</span>
                  <span className="attachment__size">{size(a.size)}</span>
                </a>
              </li>
            ))}
        </ul>
      ) : null}
    </article>
  );
}
