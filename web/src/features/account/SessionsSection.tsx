// The agent's sessions: where they are signed in (device, address, last activity), signing out
// one of the others, or all the others at once. The server ends them at once everywhere; their
// browsers are sent to sign-in on their next request (docs/api.md, "Sessions").
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, type Schemas, unwrap } from '../../api/client';
import { keys } from '../../api/keys';
import { t } from '../../i18n/t';
import { Badge } from '../../ui/Badge';
import { Button } from '../../ui/Button';
import { ConfirmDialog } from '../../ui/ConfirmDialog';
import { Card, ErrorBanner } from '../../ui/Page';
import { QueryState } from '../../ui/QueryState';
import { toast } from '../../ui/Toast';
import { ago } from '../inbox/format';
import './sessions.css';

type Session = Schemas['AgentSession'];

/** "Chrome on Linux", or what the user agent says of it. */
function deviceName(session: Session): string {
  const { browser, os } = session.device;
  if (browser && os) return t('account.sessions.device', { browser, os });
  return browser ?? os ?? t('account.sessions.unknownDevice');
}

export function SessionsSection() {
  const client = useQueryClient();
  const [confirmOthers, setConfirmOthers] = useState(false);
  const sessions = useQuery({
    queryKey: keys.mySessions,
    queryFn: () => unwrap(api.GET('/api/v1/agents/me/sessions')),
    refetchInterval: 60_000,
  });
  const end = useMutation({
    mutationFn: (session: Session) => unwrap(api.DELETE('/api/v1/agents/me/sessions/{id}', { params: { path: { id: session.id } } })),
    onSuccess: (_done, session) => {
      client.setQueryData<Session[]>(keys.mySessions, (list) => list?.filter((s) => s.id !== session.id));
      toast(t('account.sessions.signedOut', { device: deviceName(session) }));
    },
    onSettled: () => client.invalidateQueries({ queryKey: keys.mySessions }),
  });
  const endOthers = async () => {
    const { ended } = await unwrap(api.DELETE('/api/v1/agents/me/sessions'));
    client.setQueryData<Session[]>(keys.mySessions, (list) => list?.filter((s) => s.current));
    await client.invalidateQueries({ queryKey: keys.mySessions });
    toast(t('account.sessions.othersSignedOut', { n: ended }));
  };
  const others = sessions.data?.filter((s) => !s.current).length ?? 0;

  return (
    <Card
      title={t('account.sessions.title')}
      id="account-sessions"
      actions={
        others > 0 ? (
          <Button size="sm" variant="secondary" onClick={() => setConfirmOthers(true)}>
            {t('account.sessions.signOutOthers')}
          </Button>
        ) : null
      }
    >
      <p className="muted">{t('account.sessions.hint')}</p>
      <QueryState query={sessions}>
        {(list) => (
          <>
            <ul className="sessions" aria-label={t('account.sessions.list')}>
              {list.map((session) => {
                const device = deviceName(session);
                return (
                  <li key={session.id} className="sessions__item">
                    <div>
                      <div className="sessions__device">
                        <span>{device}</span>
                        {session.current ? <Badge tone="success">{t('account.sessions.thisDevice')}</Badge> : null}
                      </div>
                      <div className="sessions__meta" title={session.user_agent ?? undefined}>
                        {[
                          session.ip ? t('account.sessions.address', { ip: session.ip }) : null,
                          session.last_seen_at
                            ? t('account.sessions.lastSeen', { when: ago(session.last_seen_at) })
                            : t('account.sessions.neverSeen', { when: ago(session.created_at) }),
                        ]
                          .filter(Boolean)
                          .join(' · ')}
                      </div>
                    </div>
                    {session.current ? null : (
                      <Button
                        size="sm"
                        variant="ghost"
                        className="danger-text"
                        aria-label={t('account.sessions.signOutNamed', { device })}
                        loading={end.isPending && end.variables?.id === session.id}
                        onClick={() => end.mutate(session)}
                      >
                        {t('account.sessions.signOut')}
                      </Button>
                    )}
                  </li>
                );
              })}
            </ul>
            {others === 0 ? <p className="muted">{t('account.sessions.onlyThis')}</p> : null}
          </>
        )}
      </QueryState>
      <ErrorBanner message={end.error?.message} />
      <ConfirmDialog
        open={confirmOthers}
        onOpenChange={setConfirmOthers}
        title={t('account.sessions.signOutOthers')}
        message={t('account.sessions.confirmOthers', { n: others })}
        confirmLabel={t('account.sessions.signOutOthers')}
        onConfirm={endOthers}
      />
    </Card>
  );
}
