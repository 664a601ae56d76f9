// A record's dialog starts from the record each time it opens (or is handed another record while
// open): its form is reset and the last save's error cleared, not kept from the previous opening.
import { useEffect } from 'react';

/** Runs `start` when `open` turns true, and when `record` changes while open. */
export function useOnOpen(open: boolean, record: unknown, start: () => void): void {
  // biome-ignore lint/correctness/useExhaustiveDependencies: only opening or another record restarts the form; `start` is new on every render
  useEffect(() => {
    if (open) start();
  }, [open, record]);
}
