import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Navigate, Outlet, useLocation } from 'react-router';
import { keys } from '../../api/keys';
import { EnrolmentHold } from '../account/EnrolmentHold';
import { t } from '../../i18n/t';
import { Button } from '../../ui/Button';
import { EmptyState } from '../../ui/EmptyState';
import { Loading } from '../../ui/Spinner';
import { forgetSignedOut, isSigningOut, useMe } from './session';

/** Renders the signed-in screens, or sends the browser to the sign-in page with where it wanted to go. */
export function RequireSession() {
  const me = useMe();
  const location = useLocation();
  const client = useQueryClient();
  const gone = me.isSuccess && !me.data;
  // Held at enrolment (a role requires two-factor sign-in): until it is on and its recovery codes were seen.
  const [showingCodes, setShowingCodes] = useState(false);
  // Runs after the commit that took the signed-in screens away: nothing is left to read again.
  useEffect(() => {
    if (gone) forgetSignedOut(client);
  }, [gone, client]);
  if (me.isPending) return <Loading />;
  if (me.isError)
    return (
      <main className="page-centered">
        <EmptyState
          title={t('app.error')}
          hint={me.error.message}
          action={<Button onClick={() => me.refetch()}>{t('app.retry')}</Button>}
        />
      </main>
    );
  if (!me.data) {
    const next = isSigningOut() ? '' : `?next=${encodeURIComponent(location.pathname + location.search)}`;
    return <Navigate to={`/login${next}`} replace />;
  }
  if (me.data.mfa_setup_required || showingCodes)
    return (
      <EnrolmentHold
        onEnabled={() => setShowingCodes(true)}
        onDone={() => {
          setShowingCodes(false);
          void client.invalidateQueries({ queryKey: keys.me });
        }}
      />
    );
  return <Outlet />;
}
