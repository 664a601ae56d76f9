// Message content on the way in: HTML is sanitised against an allow-list and its
// plain-text form (previews, search) derived from what was kept.
import { compile } from 'html-to-text';
import sanitizeHtml from 'sanitize-html';

const ALLOWED: sanitizeHtml.IOptions = {
  allowedTags: [
    'p', 'br', 'hr', 'div', 'span', 'b', 'strong', 'i', 'em', 'u', 's', 'strike', 'del', 'sub', 'sup', 'small', 'mark',
    'a', 'ul', 'ol', 'li', 'blockquote', 'code', 'pre', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6',
    'table', 'thead', 'tbody', 'tfoot', 'tr', 'th', 'td', 'img',
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
    a: sanitizeHtml.simpleTransform('a', { rel: 'noopener noreferrer nofollow', target: '_blank' }),
  },
};

export function sanitizeMessageHtml(html: string): string {
  return sanitizeHtml(html, ALLOWED).trim();
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

export function htmlToText(html: string): string {
  return toText(html)
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

export interface PreparedContent {
  content: string;
  textContent: string;
}

/** HTML is sanitised and converted; plain text is kept as it is (it is never rendered as HTML). */
export function prepareContent(raw: string, contentType: 'html' | 'text'): PreparedContent {
  if (contentType === 'text') {
    const text = raw.replace(/\r\n?/g, '\n').trim();
    return { content: text, textContent: text };
  }
  const content = sanitizeMessageHtml(raw);
  return { content, textContent: htmlToText(content) };
}

const PREVIEW_LENGTH = 200;

/** The conversation list's one-line preview of a message. */
export function previewOf(textContent: string, attachmentCount: number): string {
  const oneLine = textContent.replace(/\s+/g, ' ').trim();
  if (oneLine.length > 0) return [...oneLine].slice(0, PREVIEW_LENGTH).join('');
  return attachmentCount > 0 ? 'File' : '';
}
