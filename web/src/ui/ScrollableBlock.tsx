import type { ReactNode } from 'react';

/**
 * Preformatted text that may scroll (a request body, a receiver's answer): a named region that
 * takes the focus, so a keyboard can scroll it and a screen reader says what it holds.
 */
export function ScrollableBlock({ label, className, children }: { label: string; className?: string; children: ReactNode }) {
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must be reachable by keyboard (WCAG 2.1.1)
    <section className={`scrollable-block ${className ?? ''}`} tabIndex={0} aria-label={label}>
      <pre>{children}</pre>
    </section>
  );
}
