// Remote images in a contact's HTML (a tracking pixel tells the sender when and where a message
// was read) are held back until the agent asks: each http(s) `<img src>` becomes
// `data-remote-src`. Only `data:` and `cid:` sources are shown as they are; any other source (a
// relative `/api/…` one in HTML stored before the server's sanitiser refused it, `//host`, an
// unknown scheme) is no remote image and would load with the agent's cookies: it is dropped, and
// never loads, not even after "Load images". `srcset` is dropped too. The HTML is parsed in an
// inert document (DOMParser loads nothing), so no image is requested before the rewritten HTML
// reaches the page.

type ImageSource = 'inline' | 'remote' | 'dropped';

function sourceKind(src: string): ImageSource {
  const value = src.trim();
  if (/^(data|cid):/i.test(value)) return 'inline';
  if (/^https?:\/\/[^/]/i.test(value)) return 'remote';
  return 'dropped';
}

/**
 * `html`: the remote images held; `loaded`: what "Load images" shows (the remote images back,
 * the dropped sources still gone); `held`: how many are held.
 */
export function holdRemoteImages(html: string): { html: string; loaded: string; held: number } {
  const doc = new DOMParser().parseFromString(html, 'text/html');
  let changed = false;
  for (const img of doc.querySelectorAll('img[srcset]')) {
    img.removeAttribute('srcset');
    changed = true;
  }
  const remote: Element[] = [];
  for (const img of doc.querySelectorAll('img[src]')) {
    const kind = sourceKind(img.getAttribute('src') ?? '');
    if (kind === 'remote') remote.push(img);
    if (kind === 'dropped') {
      img.removeAttribute('src');
      changed = true;
    }
  }
  const loaded = changed ? doc.body.innerHTML : html;
  for (const img of remote) {
    img.setAttribute('data-remote-src', img.getAttribute('src') ?? '');
    img.removeAttribute('src');
  }
  return { html: remote.length > 0 ? doc.body.innerHTML : loaded, loaded, held: remote.length };
}
