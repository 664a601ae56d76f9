// One conversation: its header, the thread, the composer and the details sidebar. Opening it
// subscribes to its typing frames and marks it read.
import { ArrowLeft, PanelRight } from 'lucide-react';
import { type CSSProperties, lazy, type RefObject, Suspense, useEffect, useMemo, useRef, useState } from 'react';
import { Link, useParams } from 'react-router';
import { useAgents } from '../../api/reference';
import { type Command, useCommands } from '../../app/CommandPalette';
import { t } from '../../i18n/t';
import { useConversationSubscription, useTypists } from '../../realtime/RealtimeProvider';
import { Badge } from '../../ui/Badge';
import { Button } from '../../ui/Button';
import { EmptyState } from '../../ui/EmptyState';
import { Loading } from '../../ui/Spinner';
import { toast } from '../../ui/Toast';
import { can, displayName, useAgent } from '../auth/session';
import { contactName } from '../inbox/format';
import { ViewersBar } from '../presence/ViewersBar';
import { useChangeConversation } from './changes';
import { useContactRemoteImages, useConversation, useMarkSeen } from './queries';
import { Sidebar } from './Sidebar';
import { Thread } from './Thread';
import { conversationTitle, useDocumentTitle } from './title';
import './conversation.css';
import { ColleagueDrafts } from './ColleagueDrafts';

const Composer = lazy(() => import('./Composer'));

function TypingLine({ uuid, contact }: { uuid: string; contact: string }) {
  const typists = useTypists(uuid);
  const agents = useAgents();
  const me = useAgent();
  const names = typists
    .filter((typist) => typist.agentId !== me.id)
    .map((typist) =>
      typist.contactId !== undefined
        ? contact
        : displayName(agents.data?.find((a) => a.id === typist.agentId) ?? { first_name: '?', last_name: '' }),
    );
  return (
    <p className="typing" aria-live="polite">
      {names.length > 0 ? t('conversation.contactTyping', { name: names.join(', '), n: names.length }) : ''}
    </p>
  );
}

/** The element's height, followed as it changes (the details panel opens below the header). */
function useHeight(ref: RefObject<HTMLElement | null>): number {
  const [height, setHeight] = useState(0);
  useEffect(() => {
    const element = ref.current;
    if (!element) return;
    const observer = new ResizeObserver(() => setHeight(element.offsetHeight));
    observer.observe(element);
    return () => observer.disconnect();
  });
  return height;
}

export function ConversationView() {
  const { uuid = '' } = useParams();
  const conversation = useConversation(uuid);
  const me = useAgent();
  const change = useChangeConversation();
  const markSeen = useMarkSeen();
  const remoteImages = useContactRemoteImages(conversation.data?.contact.id ?? 0);
  // Beside the thread on a wide screen; over it, on demand, on a narrower one.
  const [details, setDetails] = useState(() => matchMedia('(min-width: 1200px)').matches);
  // Opened by the agent (the toggle): its close button takes the focus, and gives it back.
  const [openedByAgent, setOpenedByAgent] = useState(false);
  const toggle = useRef<HTMLButtonElement>(null);
  const header = useRef<HTMLElement>(null);
  const headerHeight = useHeight(header);
  const closeDetails = () => {
    setDetails(false);
    toggle.current?.focus();
  };
  useConversationSubscription(uuid);
  useDocumentTitle(conversation.data ? conversationTitle(conversation.data) : null);

  const lastMessageAt = conversation.data?.last_message_at;
  const unread = conversation.data?.unread_message_count ?? 0;
  const mark = markSeen.mutate;
  // biome-ignore lint/correctness/useExhaustiveDependencies: mark again when a new message arrives while open
  useEffect(() => {
    if (conversation.isSuccess && unread > 0) mark(uuid);
  }, [uuid, conversation.isSuccess, lastMessageAt, mark]);

  const run = (label: string, next: Parameters<typeof change.mutate>[0]['change']) =>
    change.mutate({ uuid, change: next }, { onSuccess: () => toast(label), onError: (error) => toast(error.message, 'error') });
  // biome-ignore lint/correctness/useExhaustiveDependencies: run closes over the current uuid
  const commands: Command[] = useMemo(
    () => [
      { id: 'resolve', label: t('palette.resolve'), run: () => run(t('palette.resolve'), { kind: 'status', status: 'Resolved' }) },
      { id: 'assign-me', label: t('palette.assignMe'), run: () => run(t('palette.assignMe'), { kind: 'assignee', id: me.id }) },
    ],
    [uuid, me.id],
  );
  useCommands('conversation', commands);

  if (conversation.isPending) return <Loading label={t('conversation.loading')} />;
  if (conversation.isError) return <EmptyState title={t('conversation.notFound')} hint={conversation.error.message} />;
  const c = conversation.data;
  const contact = contactName(c.contact);

  return (
    <div
      className={`conversation${details ? ' conversation--details' : ''}`}
      style={headerHeight ? ({ '--conversation-header': `${headerHeight}px` } as CSSProperties) : undefined}
    >
      <article className="conversation__main" aria-labelledby="conversation-title">
        <header className="conversation__header" ref={header}>
          <Link
            to=".."
            relative="path"
            className="conversation__back ui-button ui-button--ghost ui-button--sm"
            aria-label={t('common.previous')}
          >
            <ArrowLeft size={16} aria-hidden />
          </Link>
          <div className="conversation__titles">
            <h2 id="conversation-title">{conversationTitle(c)}</h2>
            <p className="conversation__sub">
              {contact} · #{c.reference_number} · {c.inbox_name}
            </p>
          </div>
          <ViewersBar uuid={uuid} />
          <Badge>{c.status}</Badge>
          {c.status_category !== 'resolved' ? (
            <Button size="sm" onClick={() => run(t('palette.resolve'), { kind: 'status', status: 'Resolved' })}>
              {t('shortcuts.resolve')}
            </Button>
          ) : null}
          <Button
            ref={toggle}
            size="sm"
            variant="ghost"
            aria-pressed={details}
            aria-expanded={details}
            onClick={() => {
              setOpenedByAgent(!details);
              setDetails(!details);
            }}
            aria-label={t('sidebar.label')}
          >
            <PanelRight size={16} aria-hidden />
          </Button>
        </header>
        <Thread
          key={uuid}
          uuid={uuid}
          contact={{ name: contact, avatarUrl: c.contact.avatar_url ?? null }}
          images={{
            always: c.contact.load_remote_images,
            sender: contact,
            onAlways: can(me, 'contacts:write')
              ? () => remoteImages.mutate(true, { onError: (error) => toast(error.message, 'error') })
              : null,
          }}
        />
        <TypingLine uuid={uuid} contact={contact} />
        <ColleagueDrafts uuid={uuid} />
        <Suspense fallback={<Loading />}>
          {/* Keyed: another conversation gets a composer of its own, never this one's draft. */}
          <Composer key={uuid} conversationUuid={uuid} />
        </Suspense>
      </article>
      {details ? <Sidebar conversation={c} onClose={closeDetails} focusClose={openedByAgent} /> : null}
    </div>
  );
}
