// The thread, oldest first, virtualised (only what is on screen is in the DOM, so a
// conversation of thousands of messages scrolls as lightly as a short one). It opens at the
// newest message and follows new ones while the agent is at the bottom; older pages load on demand.
import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useLayoutEffect, useMemo, useRef } from 'react';
import { useAgents } from '../../api/reference';
import { t } from '../../i18n/t';
import { Button } from '../../ui/Button';
import { Loading } from '../../ui/Spinner';
import { displayName } from '../auth/session';
import { MessageItem, type Person, type RemoteImages } from './MessageItem';
import { useMessages } from './queries';

export function Thread({ uuid, contact, images }: { uuid: string; contact: Person; images: RemoteImages }) {
  const messages = useMessages(uuid);
  const agents = useAgents();
  const scroller = useRef<HTMLDivElement>(null);
  const atBottom = useRef(true);
  const items = useMemo(() => (messages.data?.pages ?? []).flatMap((page) => page.results).reverse(), [messages.data]);
  const people = useMemo(
    () => new Map((agents.data ?? []).map((a): [number, Person] => [a.id, { name: displayName(a), avatarUrl: a.avatar_url }])),
    [agents.data],
  );

  const virtualizer = useVirtualizer({
    count: items.length,
    getScrollElement: () => scroller.current,
    // About a short message's height: the closer, the fewer corrections while scrolling.
    estimateSize: () => 96,
    overscan: 6,
    getItemKey: (index) => items[index]?.uuid ?? index,
  });

  // Open at the newest message; follow new ones while at the bottom. When older messages are
  // put above, the message that was first stays where it was.
  const last = items.at(-1)?.uuid;
  const first = items[0]?.uuid;
  const previousFirst = useRef<string | undefined>(undefined);
  useLayoutEffect(() => {
    if (previousFirst.current && first !== previousFirst.current && !atBottom.current) {
      const index = items.findIndex((m) => m.uuid === previousFirst.current);
      if (index > 0) virtualizer.scrollToIndex(index, { align: 'start' });
    } else if (last && atBottom.current) virtualizer.scrollToIndex(items.length - 1, { align: 'end' });
    previousFirst.current = first;
  }, [first, last, items, virtualizer]);

  // The scroller exists once the first page is in: listen from then on.
  const ready = !messages.isPending;
  useEffect(() => {
    const element = scroller.current;
    if (!ready || !element) return;
    const onScroll = () => {
      atBottom.current = element.scrollHeight - element.scrollTop - element.clientHeight < 80;
    };
    element.addEventListener('scroll', onScroll, { passive: true });
    return () => element.removeEventListener('scroll', onScroll);
  }, [ready]);

  if (messages.isPending) return <Loading />;
  return (
    // A scrolling region must take keyboard focus to be scrolled without a pointer (WCAG 2.1.1).
    // biome-ignore lint/a11y/noNoninteractiveTabindex: see above
    <div className="thread" ref={scroller} role="log" aria-label={t('conversation.thread')} aria-live="polite" tabIndex={0}>
      {messages.hasNextPage ? (
        <div className="thread__older">
          <Button size="sm" loading={messages.isFetchingNextPage} onClick={() => messages.fetchNextPage()}>
            {t('conversation.olderMessages')}
          </Button>
        </div>
      ) : null}
      <div className="thread__inner" style={{ height: virtualizer.getTotalSize() }}>
        {virtualizer.getVirtualItems().map((row) => {
          const message = items[row.index];
          if (!message) return null;
          const author =
            message.type === 'incoming'
              ? contact
              : message.sender_id === null
                ? { name: t('conversation.system'), avatarUrl: null }
                : (people.get(message.sender_id) ?? { name: t('common.unknown'), avatarUrl: null });
          return (
            <div
              key={row.key}
              data-index={row.index}
              ref={virtualizer.measureElement}
              className="thread__row"
              style={{ transform: `translateY(${row.start}px)` }}
            >
              <MessageItem message={message} author={author} images={images} />
            </div>
          );
        })}
      </div>
    </div>
  );
}
