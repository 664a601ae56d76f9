// Live updates accept a browser's session only from a page of BASE_URL's origin (the socket's
// Origin check, server/src/realtime/agent-socket.ts): the app opened at another address (127.0.0.1
// for localhost, a second host name, a proxy's own address) works but never updates by itself.
// The server says its BASE_URL (GET /setup); this bar tells the agent and links there. It does
// not block anything: everything else works at either address.
import { useSetupNeeded } from '../features/auth/setup';
import { t } from '../i18n/t';

/** BASE_URL's origin when this page is not on it, else null (also before the answer, or for a malformed one). */
export function otherOrigin(baseUrl: string | undefined, here: string): string | null {
  if (!baseUrl) return null;
  try {
    const origin = new URL(baseUrl).origin;
    return origin === here ? null : origin;
  } catch {
    return null;
  }
}

export function OriginNotice() {
  const setup = useSetupNeeded();
  const origin = otherOrigin(setup.data?.base_url, window.location.origin);
  if (!origin) return null;
  const there = `${origin}${window.location.pathname}${window.location.search}`;
  return (
    <output className="origin-notice">
      <span>{t('realtime.elsewhere')}</span> <a href={there}>{t('realtime.elsewhereLink', { url: origin })}</a>
    </output>
  );
}
