// Every string the app shows comes from one catalogue (en.ts), through t(). A translation is
// another catalogue of the same keys; `{name}` placeholders are filled from `vars`.
import { en, type MessageKey } from './en';

let catalogue: Record<MessageKey, string> = en;

export function setCatalogue(next: Record<MessageKey, string>): void {
  catalogue = next;
}

export function t(key: MessageKey, vars?: Record<string, string | number>): string {
  const text = catalogue[key];
  if (!vars) return text;
  return text.replace(/\{(\w+)\}/g, (whole, name: string) => (name in vars ? String(vars[name]) : whole));
}

/** Plural forms: `one` when n is 1, else `other`. */
export function tn(n: number, one: MessageKey, other: MessageKey, vars: Record<string, string | number> = {}): string {
  return t(n === 1 ? one : other, { n, ...vars });
}

export type { MessageKey };
