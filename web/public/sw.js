// Parley's service worker, at the root scope: Web Push only (it caches nothing and handles no
// fetch). A push carries {title, body, url, tag} (docs/api.md, "Web Push"); clicking the
// notification focuses a Parley tab on that URL, or opens one.
/* global self, clients */

self.addEventListener('install', () => {
  self.skipWaiting();
});

self.addEventListener('activate', (event) => {
  // Controlling the open tabs lets a click navigate them (WindowClient.navigate).
  event.waitUntil(self.clients.claim());
});

/** A path of this app ("/conversations/…"), never another origin. */
function appPath(value) {
  return typeof value === 'string' && /^\/(?![/\\])/.test(value) ? value : '/';
}

self.addEventListener('push', (event) => {
  let data = {};
  try {
    data = event.data ? event.data.json() : {};
  } catch {
    data = {};
  }
  const title = typeof data.title === 'string' && data.title !== '' ? data.title : 'Parley';
  const tag = typeof data.tag === 'string' && data.tag !== '' ? data.tag : undefined;
  event.waitUntil(
    self.registration.showNotification(title, {
      body: typeof data.body === 'string' ? data.body : '',
      icon: '/favicon.svg',
      tag,
      // A newer notification of the same conversation replaces the older one, and still alerts.
      renotify: tag !== undefined,
      data: { url: appPath(data.url) },
    }),
  );
});

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const target = new URL(appPath(event.notification.data && event.notification.data.url), self.location.origin).href;
  event.waitUntil(
    (async () => {
      const windows = await clients.matchAll({ type: 'window', includeUncontrolled: true });
      const tab = windows.find((client) => new URL(client.url).origin === self.location.origin);
      if (tab) {
        const focused = await tab.focus();
        try {
          await (focused || tab).navigate(target);
          return;
        } catch {
          // An uncontrolled tab cannot be navigated from here: open the page instead.
        }
      }
      await clients.openWindow(target);
    })(),
  );
});
