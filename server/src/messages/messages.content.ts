// Message content on the way in: HTML is bounded in depth, sanitised against an allow-list,
// and its plain-text form (previews, search) derived from what was kept. Every path that
// stores or renders HTML (replies and notes, conversation creation, macros when saved and
// applied) goes through sanitizeBounded below. The mention markup (followers/mentions.ts) is kept
// only where it means something, in an agent's private note (and its draft); everywhere else
// (a public reply, a contact's mail) its attributes are dropped, so that no customer receives
// agents' ids and no sender can forge a mention.
import { compile } from 'html-to-text';
import sanitizeHtml from 'sanitize-html';
import { InputError } from '../errors.ts';

const ALLOWED: sanitizeHtml.IOptions = {
  allowedTags: [
    'p',
    'br',
    'hr',
    'div',
    'span',
    'b',
    'strong',
    'i',
    'em',
    'u',
    's',
    'strike',
    'del',
    'sub',
    'sup',
    'small',
    'mark',
    'a',
    'ul',
    'ol',
    'li',
    'blockquote',
    'code',
    'pre',
    'h1',
    'h2',
    'h3',
    'h4',
    'h5',
    'h6',
    'table',
    'thead',
    'tbody',
    'tfoot',
    'tr',
    'th',
    'td',
    'img',
  ],
  allowedAttributes: {
    a: ['href', 'title', 'target', 'rel'],
    img: ['src', 'alt', 'title', 'width', 'height'],
    td: ['colspan', 'rowspan'],
    th: ['colspan', 'rowspan'],
    ol: ['start'],
  },
  allowedSchemes: ['http', 'https', 'mailto', 'tel'],
  allowedSchemesByTag: { img: ['http', 'https', 'cid'] },
  allowProtocolRelative: false,
  disallowedTagsMode: 'discard',
  transformTags: {
    a: (tagName, attribs) => ({
      tagName,
      attribs: { ...absoluteOnly(attribs, 'href'), rel: 'noopener noreferrer nofollow', target: '_blank' },
    }),
    img: (tagName, attribs) => ({ tagName, attribs: absoluteOnly(attribs, 'src') }),
  },
};

/** ALLOWED and the mention markup of notes; every other data-* attribute is still dropped. */
const ALLOWED_WITH_MENTIONS: sanitizeHtml.IOptions = {
  ...ALLOWED,
  allowedAttributes: { ...ALLOWED.allowedAttributes, span: ['data-mention-agent-id', 'data-mention-team-id'] },
  transformTags: { ...ALLOWED.transformTags, span: (tagName, attribs) => ({ tagName, attribs: mentionIdsOnly(attribs) }) },
};

export interface ContentOptions {
  /** Keep the mention markup: an agent's private note, or its draft. */
  mentions?: boolean;
}

/** A URL with one of the schemes kept (the scheme lists above then judge it); anything else is relative. */
const ABSOLUTE_URL = /^(?:https?|mailto|tel|cid):/i;

/**
 * The attributes without `name` when its URL is relative (`/api/…`, `page.html`, `\\host`): in
 * a message it would resolve against Parley's own address (a link or an image request to the
 * API, with the agent's cookies) or the widget's page, never what the sender meant.
 */
function absoluteOnly(attribs: sanitizeHtml.Attributes, name: string): sanitizeHtml.Attributes {
  const value = attribs[name];
  if (value === undefined || ABSOLUTE_URL.test(value.trim())) return attribs;
  const { [name]: _dropped, ...rest } = attribs;
  return rest;
}

/** A mention names an agent or a team by its id: digits only (no sign, no space, at most 9 digits). */
const MENTION_ID = /^[1-9][0-9]{0,8}$/;

/** The span's attributes without a mention id that is not one. */
function mentionIdsOnly(attribs: sanitizeHtml.Attributes): sanitizeHtml.Attributes {
  const kept: sanitizeHtml.Attributes = {};
  for (const [name, value] of Object.entries(attribs)) {
    if (name.startsWith('data-mention-') && !MENTION_ID.test(value)) continue;
    kept[name] = value;
  }
  return kept;
}

/**
 * How deeply elements may nest. The conversion to plain text (and a browser rendering the
 * message) recurses once per level: a few thousand levels overflow the stack. Real messages,
 * quoted email threads included, stay far below.
 */
export const MAX_HTML_DEPTH = 100;

/** Thrown from the parser's callback to stop at the first level too deep. */
class TooDeep extends Error {}

/**
 * The one bound on HTML depth: sanitises `html` and measures, in the same parse, how deeply its
 * elements nest as the HTML parser builds them (void elements and implied end tags included,
 * disallowed tags too). Null when deeper than MAX_HTML_DEPTH; parsing stops there.
 */
export function sanitizeBounded(html: string, content: ContentOptions = {}): string | null {
  let depth = 0;
  const options: sanitizeHtml.IOptions = {
    ...(content.mentions ? ALLOWED_WITH_MENTIONS : ALLOWED),
    onOpenTag: () => {
      depth += 1;
      if (depth > MAX_HTML_DEPTH) throw new TooDeep();
    },
    onCloseTag: () => {
      depth -= 1;
    },
  };
  try {
    return sanitizeHtml(html, options).trim();
  } catch (error) {
    if (error instanceof TooDeep) return null;
    throw error;
  }
}

export function tooDeepReason(): string {
  return `HTML is nested deeper than ${MAX_HTML_DEPTH} levels`;
}

/** Sanitised HTML; 400 on `field` when it nests too deeply. */
export function sanitizeMessageHtml(html: string, field: string, options: ContentOptions = {}): string {
  const clean = sanitizeBounded(html, options);
  if (clean === null) throw InputError.field(field, tooDeepReason());
  return clean;
}

// Compiled once: building the converter (its selector tree) costs more than converting a reply.
const toText = compile({
  wordwrap: false,
  selectors: [
    { selector: 'a', options: { ignoreHref: true } },
    { selector: 'img', format: 'skip' },
    { selector: 'h1', options: { uppercase: false } },
    { selector: 'h2', options: { uppercase: false } },
    { selector: 'h3', options: { uppercase: false } },
    { selector: 'h4', options: { uppercase: false } },
    { selector: 'h5', options: { uppercase: false } },
    { selector: 'h6', options: { uppercase: false } },
    { selector: 'table', format: 'dataTable' },
  ],
});

function htmlToText(html: string): string {
  return toText(html)
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

/**
 * Content that went through prepareContent: sanitised, depth-bounded HTML, or trimmed text.
 * The brand makes it the only kind appendMessage accepts, so no channel can store raw HTML.
 */
export type PreparedText = string & { readonly __prepared: true };

export interface PreparedContent {
  content: PreparedText;
  textContent: string;
}

/**
 * HTML is bounded, sanitised and converted (400 on `field` when nested too deeply); plain text
 * is kept as it is (it is never rendered as HTML).
 */
export function prepareContent(raw: string, contentType: 'html' | 'text', field: string, options: ContentOptions = {}): PreparedContent {
  if (contentType === 'text') {
    const text = raw.replace(/\r\n?/g, '\n').trim();
    return { content: text as PreparedText, textContent: text };
  }
  const content = sanitizeMessageHtml(raw, field, options);
  return { content: content as PreparedText, textContent: htmlToText(content) };
}

/** Something to show: text, an inline image, or attachments. */
export function hasContent(prepared: PreparedContent, attachmentCount = 0): boolean {
  return prepared.textContent !== '' || attachmentCount > 0 || /<img\s/i.test(prepared.content);
}

const PREVIEW_LENGTH = 200;

/** The conversation list's one-line preview of a message. */
export function previewOf(textContent: string, attachmentCount: number): string {
  const oneLine = textContent.replace(/\s+/g, ' ').trim();
  if (oneLine.length > 0) return [...oneLine].slice(0, PREVIEW_LENGTH).join('');
  return attachmentCount > 0 ? 'File' : '';
}
