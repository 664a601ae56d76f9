// The frame in preview mode (/widget/frame/?preview=1), embedded by Parley's web app beside the
// live-chat settings being edited (web/src/features/admin/inboxes/WidgetPreview.tsx). It is the
// real chat's views (App, Home, Prechat, Conversation) on a state of its own: no session, no
// visitor, no API call and no socket (the server's CSP for this page says `connect-src 'none'`
// besides). It renders the settings the page sends (`preview`, protocol.ts), checked here,
// with a sample conversation so the branding shows on messages too; the composer is disabled.
import type { PreviewView } from '../protocol.ts';
import type { Api, ChatConversation, ChatMessage, Settings } from './api.ts';
import type { Chat, ChatState, View } from './chat.ts';
import type { HostBridge } from './host.ts';
import { text } from './strings.ts';

const SAMPLE = '00000000-0000-4000-8000-00000000000';
const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const isString = (value: unknown): value is string => typeof value === 'string';

/**
 * The settings a preview message carries, when they have the shape the views read (the rest is
 * what the server answered, `POST /inboxes/{id}/widget-preview`); null otherwise.
 */
export function previewSettings(value: unknown): Settings | null {
  if (!isObject(value)) return null;
  const { colors, notice_banner: notice, prechat_form: form, file_upload: upload, business_hours: hours } = value;
  const texts = ['brand_name', 'logo_url', 'language', 'greeting_message', 'introduction_message', 'chat_introduction'];
  if (!texts.every((key) => isString(value[key] ?? ''))) return null;
  if (!isObject(colors) || !isString(colors['primary']) || !/^#([0-9a-f]{3}|[0-9a-f]{6})$/i.test(colors['primary'])) return null;
  if (!isObject(notice) || !isObject(form) || !Array.isArray(form['fields']) || !isObject(upload)) return null;
  if (!form['fields'].every((field) => isObject(field) && isString(field['key']) && isString(field['label']))) return null;
  if (typeof value['is_open'] !== 'boolean' || !(hours === null || Array.isArray(hours))) return null;
  for (const rules of [value['visitors'], value['users']]) {
    if (rules !== undefined && !(isObject(rules) && isString(rules['start_conversation_button_text']))) return null;
  }
  return value as Settings;
}

function sampleMessages(now: number): ChatMessage[] {
  const agent = {
    id: 1,
    first_name: text('previewAgent'),
    last_name: '',
    email: null,
    avatar_url: null,
    availability_status: 'available' as const,
    last_active_at: null,
  };
  const visitor = { ...agent, id: 2, first_name: '', type: 'visitor' as const };
  const message = (n: number, author: ChatMessage['author'], plain: string, minutesAgo: number): ChatMessage => ({
    uuid: `${SAMPLE}${n}`,
    status: 'sent',
    conversation_uuid: `${SAMPLE}0`,
    created_at: new Date(now - minutesAgo * 60_000).toISOString(),
    // Agent replies arrive as (sanitised) HTML, visitors' messages as plain text.
    content: author.type === 'agent' ? `<p>${plain}</p>` : plain,
    text_content: plain,
    author,
    attachments: [],
    meta: {},
  });
  return [
    message(1, { ...agent, type: 'agent' }, text('previewReply'), 3),
    message(2, visitor, text('previewQuestion'), 2),
    message(3, { ...agent, type: 'agent' }, text('previewAnswer'), 1),
  ];
}

function sampleConversation(messages: ChatMessage[]): ChatConversation {
  const last = messages[messages.length - 1] as ChatMessage;
  const { id, first_name, last_name, avatar_url, availability_status } = last.author;
  const person = { id: id ?? 1, first_name, last_name, avatar_url, availability_status, active_at: null };
  return {
    created_at: messages[0]?.created_at ?? last.created_at,
    uuid: `${SAMPLE}0`,
    status: 'Open',
    last_message: { content: last.text_content, created_at: last.created_at, author: { ...person, type: 'agent' } },
    unread_message_count: 0,
    assignee: { ...person, type: 'agent' },
  };
}

/** Nothing in a preview reaches the server: every call is refused (and CSP would refuse it too). */
const inertApi = new Proxy({}, { get: () => () => Promise.reject(new Error(text('previewNotice'))) }) as Api;

export function createPreviewChat(host: HostBridge): Chat {
  const messages = sampleMessages(Date.now());
  const conversation = sampleConversation(messages);
  let state: ChatState = {
    settings: null,
    failed: false,
    user: null,
    conversations: [conversation],
    view: { name: 'home' },
    current: null,
    typing: null,
    visible: true,
    connected: false,
    busy: false,
    notice: null,
    preview: true,
  };
  const listeners = new Set<() => void>();
  const set = (patch: Partial<ChatState>) => {
    state = { ...state, ...patch };
    for (const listener of listeners) listener();
  };

  const prechatFields = () => {
    const form = state.settings?.prechat_form;
    if (!form?.enabled) return [];
    return form.fields.filter((f) => f.enabled !== false).sort((a, b) => (a.order ?? 0) - (b.order ?? 0));
  };
  const showConversation = () => set({ view: { name: 'conversation', uuid: conversation.uuid }, current: { conversation, messages } });
  const show = (view: PreviewView) => {
    if (view === 'conversation') return showConversation();
    const next: View = view === 'prechat' && prechatFields().length > 0 ? { name: 'prechat' } : { name: 'home' };
    set({ view: next, current: null });
  };
  const refuse = async () => {
    set({ notice: text('previewNotice') });
    return false;
  };

  return {
    get: () => state,
    subscribe(listener: () => void) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    api: inertApi,
    async boot() {
      // Only Parley's own pages drive a preview (the server's CSP allows no other embedder).
      if (host.origin !== location.origin) return set({ failed: true });
      host.listen((message) => {
        if (message.type !== 'preview') return;
        const settings = previewSettings(message.data.settings);
        if (!settings) return;
        set({ settings, notice: null });
        if (message.data.view) show(message.data.view);
      });
      host.send({ parley: 1, type: 'ready', data: { hostStorage: false } });
    },
    prechatFields,
    home: () => set({ view: { name: 'home' }, current: null, notice: null }),
    openConversation: async () => showConversation(),
    newConversation: () => show(prechatFields().length > 0 ? 'prechat' : 'conversation'),
    async start() {
      showConversation();
      return true;
    },
    send: refuse,
    upload: async () => void (await refuse()),
    typing: () => undefined,
    close: () => host.send({ parley: 1, type: 'close' }),
  };
}
