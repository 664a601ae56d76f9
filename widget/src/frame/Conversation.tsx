// The open conversation: its messages (a live region, so screen readers hear new ones), who is
// typing, and the composer with its file button (within the inbox's upload limits).
import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';
import type { Chat, ChatState } from './chat.ts';
import { PaperclipIcon } from './icons.tsx';
import { Message } from './Message.tsx';
import { text } from './strings.ts';

function Composer({ chat, state }: { chat: Chat; state: ChatState }) {
  const [draft, setDraft] = useState('');
  const input = useRef<HTMLTextAreaElement>(null);
  const file = useRef<HTMLInputElement>(null);
  const uuid = state.view.name === 'conversation' ? state.view.uuid : null;
  const uploads = state.settings?.file_upload;
  // The web app's preview shows the composer as visitors see it, but nothing can be sent.
  const off = state.preview === true;
  useEffect(() => {
    if (state.visible) input.current?.focus();
  }, [uuid, state.visible]);
  const submit = async (event?: Event) => {
    event?.preventDefault();
    const message = draft.trim();
    if (!message || state.busy) return;
    if (await chat.send(message)) setDraft('');
    input.current?.focus();
  };
  const accept = uploads?.allowed_extensions.includes('*')
    ? undefined
    : uploads?.allowed_extensions.map((e) => `.${e.replace(/^\./, '')}`).join(',');
  return (
    <form class="composer" onSubmit={submit}>
      <label class="sr" for="composer-input">
        {text('message')}
      </label>
      <textarea
        id="composer-input"
        ref={input}
        rows={1}
        maxLength={10000}
        placeholder={text('messagePlaceholder')}
        disabled={off}
        value={draft}
        onInput={(e) => {
          setDraft(e.currentTarget.value);
          chat.typing();
        }}
        onKeyDown={(e) => {
          if (e.key === 'Enter' && !e.shiftKey && !e.isComposing) void submit(e);
        }}
      />
      {uploads?.enabled && uuid ? (
        <>
          <input
            ref={file}
            type="file"
            class="sr"
            tabIndex={-1}
            aria-hidden="true"
            accept={accept}
            onChange={(e) => {
              const chosen = e.currentTarget.files?.[0];
              e.currentTarget.value = '';
              if (chosen) void chat.upload(chosen);
            }}
          />
          <button type="button" class="icon" aria-label={text('attach')} disabled={state.busy || off} onClick={() => file.current?.click()}>
            <PaperclipIcon />
          </button>
        </>
      ) : null}
      <button type="submit" class="primary" disabled={state.busy || off || draft.trim() === ''}>
        {state.busy ? text('sending') : text('send')}
      </button>
    </form>
  );
}

export function Conversation({ chat, state }: { chat: Chat; state: ChatState }) {
  const list = useRef<HTMLDivElement>(null);
  const messages = state.current?.messages ?? [];
  const conversation = state.current?.conversation;
  useLayoutEffect(() => {
    const el = list.current;
    if (el) el.scrollTop = el.scrollHeight;
  }, [messages.length, state.typing]);
  const typingName = state.typing === null ? null : state.typing ? text('typing', { name: state.typing }) : text('someoneTyping');
  return (
    <section class="conversation" aria-label={text('chat')}>
      {conversation?.status === 'Resolved' ? <p class="banner">{text('statusResolved')}</p> : null}
      {conversation?.status === 'Closed' ? <p class="banner">{text('conversationClosed')}</p> : null}
      {/* A log: screen readers announce the messages added to it. */}
      <div class="messages" ref={list} role="log" aria-live="polite" aria-relevant="additions" aria-label={text('chat')}>
        {messages.length === 0 ? <p class="muted empty">{text('noMessagesYet')}</p> : null}
        <ol class="list">
          {messages.map((message) => (
            <Message key={message.uuid} message={message} api={chat.api} />
          ))}
        </ol>
      </div>
      <output class="typing">{typingName}</output>
      {state.connected || !state.user ? null : <p class="muted small">{text('connecting')}</p>}
      {state.notice ? (
        <p class="error" role="alert">
          {state.notice}
        </p>
      ) : null}
      <Composer chat={chat} state={state} />
    </section>
  );
}
