// Light, dark or the system's choice, kept in localStorage and applied as html[data-theme]
// (tokens.css reads it; without it, prefers-color-scheme decides).
import { useSyncExternalStore } from 'react';

export type ThemeChoice = 'light' | 'dark' | 'system';
const KEY = 'parley.theme';
const listeners = new Set<() => void>();

function stored(): ThemeChoice {
  const value = localStorage.getItem(KEY);
  return value === 'light' || value === 'dark' ? value : 'system';
}

function apply(choice: ThemeChoice): void {
  if (choice === 'system') delete document.documentElement.dataset['theme'];
  else document.documentElement.dataset['theme'] = choice;
}

export function initTheme(): void {
  apply(stored());
  matchMedia('(prefers-color-scheme: dark)').addEventListener('change', () => {
    for (const listener of listeners) listener();
  });
}

export function setTheme(choice: ThemeChoice): void {
  if (choice === 'system') localStorage.removeItem(KEY);
  else localStorage.setItem(KEY, choice);
  apply(choice);
  for (const listener of listeners) listener();
}

/** The theme in effect: the choice, or the system's when none was made. */
export function effectiveTheme(): 'light' | 'dark' {
  const choice = stored();
  if (choice !== 'system') return choice;
  return matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';
}

export function toggleTheme(): void {
  setTheme(effectiveTheme() === 'dark' ? 'light' : 'dark');
}

export function useTheme(): 'light' | 'dark' {
  return useSyncExternalStore((listener) => {
    listeners.add(listener);
    return () => listeners.delete(listener);
  }, effectiveTheme);
}
