// Every string the app shows comes from one catalogue (en.ts), through t(). A translation is
// another catalogue of the same keys; `{name}` placeholders are filled from `vars`. A string that
// holds a count is a plural entry, one form per plural category of the catalogue's language
// (`{ one: '{n} holiday', other: '{n} holidays' }`): t() picks the form for `vars.n` with
// Intl.PluralRules, so a language with more categories (few, many…) just lists them.
import { en, type MessageKey } from './en';
import type { Plural } from './plural';

type Entry = string | Plural;

let catalogue: Readonly<Record<MessageKey, Entry>> = en;
let rules = new Intl.PluralRules('en');

/** Another language: its catalogue and its locale (for the plural rules). */
export function setCatalogue(next: Readonly<Record<MessageKey, Entry>>, locale: string): void {
  catalogue = next;
  rules = new Intl.PluralRules(locale);
}

/** The form of a plural entry for `n` (`other` when the language's category is missing or n is not a number). */
function pluralForm(entry: Plural, n: unknown): string {
  if (typeof n !== 'number') return entry.other;
  return entry[rules.select(n)] ?? entry.other;
}

export function t(key: MessageKey, vars?: Record<string, string | number>): string {
  const entry = catalogue[key];
  const text = typeof entry === 'string' ? entry : pluralForm(entry, vars?.['n']);
  if (!vars) return text;
  return text.replace(/\{(\w+)\}/g, (whole, name: string) => (name in vars ? String(vars[name]) : whole));
}

/** Whether `key` is in the catalogue (a key made from data, such as a permission's). */
export function isMessageKey(key: string): key is MessageKey {
  return Object.hasOwn(catalogue, key);
}

export type { MessageKey };
