// The list's keyboard: j/k (and arrows) move, Enter/o opens, e resolves, a assigns to me, x
// selects. Ignored while typing in a field or an editor, or with a modifier held.
import { useEffect, useRef } from 'react';

interface Handlers {
  count: number;
  focus: number;
  setFocus: (index: number) => void;
  open: (index: number) => void;
  resolve: (index: number) => void;
  assignMe: (index: number) => void;
  toggleSelect: (index: number) => void;
}

export function isTypingTarget(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  return (
    target.isContentEditable ||
    ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName) ||
    target.closest('[role="dialog"],[role="menu"],[role="listbox"]') !== null
  );
}

export function useListShortcuts(handlers: Handlers): void {
  const ref = useRef(handlers);
  ref.current = handlers;
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey || isTypingTarget(event.target)) return;
      const h = ref.current;
      if (h.count === 0) return;
      const at = Math.min(Math.max(h.focus, 0), h.count - 1);
      const act = (run: () => void) => {
        event.preventDefault();
        run();
      };
      switch (event.key) {
        case 'j':
        case 'ArrowDown':
          return act(() => h.setFocus(Math.min(at + 1, h.count - 1)));
        case 'k':
        case 'ArrowUp':
          return act(() => h.setFocus(Math.max(at - 1, 0)));
        case 'Enter':
        case 'o':
          // Enter on a focused link opens it by itself.
          if (event.key === 'Enter' && event.target instanceof HTMLAnchorElement) return;
          return act(() => h.open(at));
        case 'e':
          return act(() => h.resolve(at));
        case 'a':
          return act(() => h.assignMe(at));
        case 'x':
          return act(() => h.toggleSelect(at));
        default:
          return;
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
}
