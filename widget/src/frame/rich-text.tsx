// Agent replies are HTML (sanitised by the server when written). The frame still never hands
// that HTML to innerHTML: it parses it inertly (DOMParser runs no script and loads nothing) and
// rebuilds only the elements and attributes it knows, as Preact nodes. Links open in a new tab
// and only http(s) and mailto links are kept; images only from http(s).
import type { ComponentChildren } from 'preact';
import { h } from 'preact';

const BLOCKS = new Set(['p', 'div', 'br', 'ul', 'ol', 'li', 'blockquote', 'pre', 'code', 'h1', 'h2', 'h3', 'h4', 'hr']);
const INLINE = new Set(['strong', 'b', 'em', 'i', 'u', 's', 'span', 'sub', 'sup', 'small', 'a', 'img']);
const MAX_NODES = 2000;

function safeUrl(value: string | null, schemes: RegExp): string | null {
  if (!value) return null;
  try {
    const url = new URL(value, location.href);
    return schemes.test(url.protocol) ? url.href : null;
  } catch {
    return null;
  }
}

function convert(node: Node, budget: { left: number }): ComponentChildren {
  if (budget.left-- <= 0) return null;
  if (node.nodeType === Node.TEXT_NODE) return node.textContent;
  if (node.nodeType !== Node.ELEMENT_NODE) return null;
  const element = node as Element;
  const tag = element.tagName.toLowerCase();
  const children = Array.from(element.childNodes, (child) => convert(child, budget));
  if (!BLOCKS.has(tag) && !INLINE.has(tag)) return children;
  if (tag === 'a') {
    const href = safeUrl(element.getAttribute('href'), /^(https?|mailto):$/);
    return href ? h('a', { href, target: '_blank', rel: 'noopener noreferrer nofollow' }, children) : children;
  }
  if (tag === 'img') {
    const src = safeUrl(element.getAttribute('src'), /^https?:$/);
    return src ? h('img', { src, alt: element.getAttribute('alt') ?? '', loading: 'lazy' }) : null;
  }
  if (tag === 'br' || tag === 'hr') return h(tag, null);
  return h(tag, null, children);
}

/** The reply's HTML as Preact nodes. */
export function RichText({ html }: { html: string }) {
  const doc = new DOMParser().parseFromString(html, 'text/html');
  const budget = { left: MAX_NODES };
  return h(
    'div',
    { class: 'rich' },
    Array.from(doc.body.childNodes, (child) => convert(child, budget)),
  );
}
