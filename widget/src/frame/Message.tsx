// One message of the conversation: the visitor's own text on the right; an agent's reply on the
// left with the agent's name and avatar; an away notice; a CSAT survey with its rating control.
import { useEffect, useRef, useState } from 'preact/hooks';
import type { Api, ChatAttachment, ChatMessage, CsatSurvey } from './api.ts';
import { PaperclipIcon } from './icons.tsx';
import { RichText } from './rich-text.tsx';
import { fileSize, text } from './strings.ts';

const time = new Intl.DateTimeFormat(undefined, { hour: '2-digit', minute: '2-digit' });

export function fullName(person: { first_name: string; last_name: string }): string {
  return `${person.first_name} ${person.last_name}`.trim();
}

export function Avatar({ person }: { person: { first_name: string; last_name: string; avatar_url: string | null } }) {
  const name = fullName(person);
  if (person.avatar_url) return <img class="avatar" src={person.avatar_url} alt="" />;
  return (
    <span class="avatar" aria-hidden="true">
      {(name[0] ?? '?').toUpperCase()}
    </span>
  );
}

function Attachment({ file }: { file: ChatAttachment }) {
  const label = text('attachment', { name: file.name, size: fileSize(file.size) });
  return (
    <a class="file" href={file.url} target="_blank" rel="noopener noreferrer" download={file.name} aria-label={label}>
      {file.thumbnail_url ? (
        <img src={file.thumbnail_url} alt={file.name} loading="lazy" />
      ) : (
        <span class="file-name">
          <PaperclipIcon /> {file.name}
        </span>
      )}
    </a>
  );
}

function Rating({ api, uuid }: { api: Api; uuid: string }) {
  const [survey, setSurvey] = useState<CsatSurvey | null>(null);
  const [rating, setRating] = useState(0);
  const [feedback, setFeedback] = useState('');
  const [error, setError] = useState('');
  const [sent, setSent] = useState(false);
  const form = useRef<HTMLFormElement>(null);
  useEffect(() => {
    api
      .survey(uuid)
      .then((found) => {
        setSurvey(found);
        setRating(found.rating ?? 0);
        setFeedback(found.feedback ?? '');
        setSent(found.rating !== null);
      })
      .catch(() => setError(text('rateClosed')));
  }, [uuid]);
  const closed = survey !== null && Date.parse(survey.editable_until) < Date.now();
  const asking = survey !== null && !sent && !closed;
  // The survey arrives after its message was laid out (and scrolled to): bring it into view once it
  // shows, by scrolling the message list only (scrollIntoView would scroll the host page too).
  useEffect(() => {
    const el = form.current;
    const list = el?.closest('.messages');
    if (!asking || !el || !list) return;
    const below = el.getBoundingClientRect().bottom - list.getBoundingClientRect().bottom;
    if (below > 0) list.scrollTop += below;
  }, [asking]);
  if (!survey) return error ? <p class="muted">{error}</p> : null;
  if (sent || closed)
    return (
      <output class="muted">
        {sent ? text('rateThanks') : text('rateClosed')}
        {survey.rating ? ` ${'★'.repeat(survey.rating)}` : ''}
      </output>
    );
  const submit = (event: Event) => {
    event.preventDefault();
    if (rating < 1) return;
    api
      .rate(uuid, rating, feedback.trim())
      .then((saved) => {
        setSurvey(saved);
        setSent(true);
      })
      .catch((e: Error) => setError(e.message));
  };
  return (
    <form class="rating" ref={form} onSubmit={submit}>
      <fieldset>
        <legend>{text('rateTitle')}</legend>
        <div class="stars">
          {[1, 2, 3, 4, 5].map((n) => (
            <button
              key={n}
              type="button"
              class={n <= rating ? 'star on' : 'star'}
              aria-pressed={n === rating}
              aria-label={text('rateValue', { n })}
              onClick={() => setRating(n)}
            >
              ★
            </button>
          ))}
        </div>
      </fieldset>
      <label>
        {text('rateFeedback')}
        <textarea rows={2} maxLength={2000} value={feedback} onInput={(e) => setFeedback(e.currentTarget.value)} />
      </label>
      {error ? <p class="error">{error}</p> : null}
      <button type="submit" class="primary" disabled={rating < 1}>
        {text('rateSubmit')}
      </button>
    </form>
  );
}

export function Message({ message, api }: { message: ChatMessage; api: Api }) {
  const own = message.author.type === 'contact' || message.author.type === 'visitor';
  const name = fullName(message.author) || text('team');
  const csat = message.meta.csat_uuid;
  return (
    <li class={own ? 'msg own' : message.meta.away ? 'msg away' : 'msg'}>
      {own ? null : <Avatar person={message.author} />}
      <div class="bubble-wrap">
        {own ? <span class="sr">{text('you')}:</span> : <span class="author">{name}</span>}
        {message.content ? (
          <div class="bubble">{own ? <p class="plain">{message.content}</p> : <RichText html={message.content} />}</div>
        ) : null}
        {message.attachments.map((file) => (
          <Attachment key={file.uuid} file={file} />
        ))}
        {csat ? <Rating api={api} uuid={csat} /> : null}
        <time class="time" dateTime={message.created_at}>
          {time.format(new Date(message.created_at))}
        </time>
      </div>
    </li>
  );
}
