// Remote images in a contact's HTML (a tracking pixel tells the sender when and where a message
// was read) are held back until the agent asks: each http(s) `<img src>` becomes
// `data-remote-src`. The HTML is parsed in an inert document (DOMParser loads nothing), so no
// image is requested before the rewritten HTML reaches the page.
export function holdRemoteImages(html: string): { html: string; held: number } {
  const doc = new DOMParser().parseFromString(html, 'text/html');
  let held = 0;
  for (const img of doc.querySelectorAll('img[src]')) {
    const src = img.getAttribute('src') ?? '';
    if (!/^https?:/i.test(src.trim())) continue;
    img.setAttribute('data-remote-src', src);
    img.removeAttribute('src');
    held += 1;
  }
  return { html: held > 0 ? doc.body.innerHTML : html, held };
}
