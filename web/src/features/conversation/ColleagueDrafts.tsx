// Who else has a draft in this conversation (GET /conversations/{uuid}/drafts: who and when,
// never the content), above the composer. No socket frame says that a colleague saved a draft
// (they save about once a second while typing, and the typing line already shows who is typing):
// the list is read again every 15 s while the conversation is open, when the window gets the
// focus, and when a message arrives (sending deletes its sender's draft).
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { api, unwrap } from '../../api/client';
import { keys } from '../../api/keys';
import { t } from '../../i18n/t';
import { ago } from '../inbox/format';

const REFRESH_MS = 15_000;
/** Colleagues named one by one; more are counted. */
const SHOWN = 3;

export const colleagueDraftsKey = (uuid: string) => [...keys.conversations.detail(uuid), 'drafts'] as const;

export function ColleagueDrafts({ uuid }: { uuid: string }) {
  const client = useQueryClient();
  const drafts = useQuery({
    queryKey: colleagueDraftsKey(uuid),
    queryFn: () => unwrap(api.GET('/api/v1/conversations/{cuuid}/drafts', { params: { path: { cuuid: uuid } } })),
    refetchInterval: REFRESH_MS,
    refetchOnWindowFocus: true,
  });
  // A message in the thread (the cache of its messages changed): its sender's draft is gone.
  useEffect(() => {
    const messages = JSON.stringify(keys.conversations.messages(uuid));
    let last = 0;
    return client.getQueryCache().subscribe((event) => {
      if (event.type !== 'updated' || JSON.stringify(event.query.queryKey) !== messages) return;
      const at = event.query.state.dataUpdatedAt;
      if (at === last) return;
      last = at;
      void client.invalidateQueries({ queryKey: colleagueDraftsKey(uuid), exact: true });
    });
  }, [client, uuid]);
  // "2 min ago" moves on by itself.
  const [, setTick] = useState(0);
  useEffect(() => {
    const timer = window.setInterval(() => setTick((n) => n + 1), REFRESH_MS);
    return () => window.clearInterval(timer);
  }, []);

  const list = drafts.data ?? [];
  if (list.length === 0) return null;
  return (
    <ul className="colleague-drafts" aria-label={t('drafts.colleagues')}>
      {list.slice(0, SHOWN).map((d) => (
        <li key={d.agent_id}>
          {t(d.private ? 'drafts.colleagueNote' : 'drafts.colleague', { name: d.name, when: ago(String(d.updated_at)) })}
        </li>
      ))}
      {list.length > SHOWN ? <li>{t('drafts.more', { n: list.length - SHOWN })}</li> : null}
    </ul>
  );
}
