// A macro's message for one conversation: placeholders replaced with HTML-escaped values.
import type { Principal } from '../auth/credential-cache.ts';

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c] ?? c);
}

const PLACEHOLDER = /\{\{\s*([a-z_]+\.[a-z_]+)\s*\}\}/g;

export type PlaceholderValues = Readonly<Record<string, string | null | undefined>>;

/** Replaces the known placeholders with HTML-escaped values; unknown ones stay as they are. */
export function renderMacroContent(template: string, values: PlaceholderValues): string {
  return template.replace(PLACEHOLDER, (whole, key: string) => {
    if (!Object.hasOwn(values, key)) return whole;
    return escapeHtml(values[key] ?? '');
  });
}

/** The values of the documented placeholders (see MacroRecord.message_content). */
export function placeholderValues(
  contact: { first_name: string; last_name: string; email: string | null } | undefined,
  agent: Principal,
  conversation: { reference_number: string; subject: string },
): PlaceholderValues {
  return {
    'contact.first_name': contact?.first_name,
    'contact.last_name': contact?.last_name,
    'contact.email': contact?.email,
    'agent.first_name': agent.firstName,
    'agent.last_name': agent.lastName,
    'conversation.reference_number': conversation.reference_number,
    'conversation.subject': conversation.subject,
  };
}
