// The unread count in the browser tab's title, "(3) Conversation · Parley". Screens set
// document.title themselves (features/conversation/title.ts) and restore what they found: the
// prefix is kept in front of whatever title is there, watched with a MutationObserver.
import { useEffect } from 'react';

const PREFIX = /^\(\d+\+?\) /;

function withCount(title: string, count: number): string {
  const bare = title.replace(PREFIX, '');
  return count > 0 ? `(${count > 99 ? '99+' : count}) ${bare}` : bare;
}

export function useTitleCount(count: number, enabled: boolean): void {
  useEffect(() => {
    const shown = enabled ? count : 0;
    const apply = () => {
      const next = withCount(document.title, shown);
      if (next !== document.title) document.title = next;
    };
    apply();
    const element = document.querySelector('title');
    if (!element) return;
    const observer = new MutationObserver(apply);
    observer.observe(element, { childList: true, characterData: true, subtree: true });
    return () => {
      observer.disconnect();
      document.title = withCount(document.title, 0);
    };
  }, [count, enabled]);
}
