// The frame's page: the header (brand, logo, the agent in charge, back and close buttons),
// then the current view. Escape asks the host page to close the chat.
import { useEffect, useRef, useState } from 'preact/hooks';
import type { Chat, ChatState } from './chat.ts';
import { Conversation } from './Conversation.tsx';
import { Home } from './Home.tsx';
import { Avatar, fullName } from './Message.tsx';
import { Prechat } from './Prechat.tsx';
import { text } from './strings.ts';

function useChatState(chat: Chat): ChatState {
  const [state, setState] = useState(chat.get());
  useEffect(() => chat.subscribe(() => setState(chat.get())), [chat]);
  return state;
}

export function App({ chat }: { chat: Chat }) {
  const state = useChatState(chat);
  const heading = useRef<HTMLHeadingElement>(null);
  const settings = state.settings;
  useEffect(() => {
    if (settings) {
      document.documentElement.style.setProperty('--primary', settings.colors.primary);
      document.documentElement.classList.toggle('dark', settings.dark_mode);
      document.documentElement.lang = settings.language || 'en';
    }
  }, [settings]);
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') chat.close();
    };
    addEventListener('keydown', onKey);
    return () => removeEventListener('keydown', onKey);
  }, [chat]);
  useEffect(() => {
    if (state.visible && state.view.name === 'home') heading.current?.focus();
  }, [state.visible, state.view.name]);

  if (state.failed) return <p class="error center">{text('unavailable')}</p>;
  if (!settings) return <p class="muted center">{text('loading')}</p>;
  const assignee = state.view.name === 'conversation' ? state.current?.conversation.assignee : null;
  return (
    <div class="app">
      <header class="top">
        {state.view.name !== 'home' ? (
          <button type="button" class="icon light" aria-label={text('back')} onClick={() => chat.home()}>
            ←
          </button>
        ) : null}
        {settings.logo_url ? <img class="logo" src={settings.logo_url} alt="" /> : null}
        <div class="title">
          <h1 ref={heading} tabIndex={-1}>
            {settings.brand_name}
          </h1>
          {assignee ? (
            <p class="subtitle">
              <Avatar person={assignee} /> {text('chattingWith', { name: fullName(assignee) })}
            </p>
          ) : null}
        </div>
        <button type="button" class="icon light" aria-label={text('close')} onClick={() => chat.close()}>
          ✕
        </button>
      </header>
      {settings.notice_banner.enabled && settings.notice_banner.text ? <p class="banner">{settings.notice_banner.text}</p> : null}
      <main class="body">
        {state.view.name === 'home' ? <Home chat={chat} state={state} /> : null}
        {state.view.name === 'prechat' ? <Prechat chat={chat} state={state} /> : null}
        {state.view.name === 'conversation' ? <Conversation chat={chat} state={state} /> : null}
      </main>
      {settings.show_powered_by ? <footer class="powered">{text('poweredBy')}</footer> : null}
    </div>
  );
}
