// The first screen: the inbox's greeting and introduction, whether the team is in (business
// hours, the away text, the office hours when the inbox shows them), the visitor's
// conversations to continue, and the button to start one (when the inbox allows it).
import type { BusinessHours, ChatConversation, Settings } from './api.ts';
import type { Chat, ChatState } from './chat.ts';
import { BubbleIcon } from './icons.tsx';
import { Avatar, fullName } from './Message.tsx';
import { text } from './strings.ts';

const DAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'] as const;

function Hours({ settings }: { settings: Settings }) {
  const hours: BusinessHours | undefined = settings.business_hours?.[0];
  const next = settings.next_open_at ? new Date(settings.next_open_at) : null;
  const when = next ? new Intl.DateTimeFormat(undefined, { weekday: 'long', hour: '2-digit', minute: '2-digit' }).format(next) : null;
  return (
    <div class="hours">
      {settings.is_open ? (
        settings.chat_reply_expectation_message ? (
          <p>{settings.chat_reply_expectation_message}</p>
        ) : null
      ) : (
        <p class="away">
          {text('awayNow')} {when ? text('backAt', { when }) : null}
        </p>
      )}
      {hours && !hours.always_open ? (
        <details>
          <summary>{text('officeHours', { zone: hours.timezone })}</summary>
          <dl>
            {DAYS.map((day) => {
              const spans = (hours.hours as Record<string, Array<{ open: string; close: string }> | undefined>)[day] ?? [];
              return (
                <div key={day}>
                  <dt>{day.slice(0, 1).toUpperCase() + day.slice(1, 3)}</dt>
                  <dd>{spans.length ? spans.map((s) => `${s.open}–${s.close}`).join(', ') : text('closedDay')}</dd>
                </div>
              );
            })}
          </dl>
        </details>
      ) : null}
    </div>
  );
}

function ConversationItem({ conversation, onOpen }: { conversation: ChatConversation; onOpen: () => void }) {
  const last = conversation.last_message;
  const who = last?.author.type === 'agent' ? fullName(last.author) || text('team') : text('you');
  const unread = conversation.unread_message_count;
  return (
    <li>
      <button type="button" class="conv" onClick={onOpen}>
        {last && last.author.type === 'agent' ? (
          <Avatar person={last.author} />
        ) : (
          <span class="avatar" aria-hidden="true">
            <BubbleIcon />
          </span>
        )}
        <span class="conv-text">
          <span class="conv-who">{who}</span>
          <span class="conv-last">{last ? last.content || text('fileSent') : text('noMessagesYet')}</span>
        </span>
        {unread > 0 ? (
          <span class="count">
            <span class="sr">{text('newMessages')}: </span>
            {unread}
          </span>
        ) : null}
      </button>
    </li>
  );
}

export function Home({ chat, state }: { chat: Chat; state: ChatState }) {
  const settings = state.settings;
  if (!settings) return null;
  const rules = (state.user && !state.user.is_visitor ? settings.users : settings.visitors) ?? {
    allow_start_conversation: true,
    prevent_multiple_conversations: false,
    prevent_reply_to_closed_conversation: false,
    start_conversation_button_text: text('start'),
  };
  const canStart = rules.allow_start_conversation && !(rules.prevent_multiple_conversations && state.conversations.length > 0);
  return (
    <section class="home">
      <div class="intro">
        <h2 class="greeting">{settings.greeting_message}</h2>
        {settings.introduction_message ? <p>{settings.introduction_message}</p> : null}
        {settings.chat_introduction ? <p class="muted">{settings.chat_introduction}</p> : null}
      </div>
      <Hours settings={settings} />
      {state.conversations.length > 0 ? (
        <div class="card">
          <h3>{text('yourConversations')}</h3>
          <ul class="convs">
            {state.conversations.map((c) => (
              <ConversationItem key={c.uuid} conversation={c} onOpen={() => void chat.openConversation(c.uuid)} />
            ))}
          </ul>
        </div>
      ) : null}
      {canStart ? (
        <button type="button" class="primary wide" onClick={() => chat.newConversation()}>
          {rules.start_conversation_button_text}
        </button>
      ) : null}
    </section>
  );
}
