import { Navigate, Outlet, useLocation } from 'react-router';
import { t } from '../../i18n/t';
import { Button } from '../../ui/Button';
import { EmptyState } from '../../ui/EmptyState';
import { Loading } from '../../ui/Spinner';
import { useMe } from './session';

/** Renders the signed-in screens, or sends the browser to the sign-in page with where it wanted to go. */
export function RequireSession() {
  const me = useMe();
  const location = useLocation();
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
  if (!me.data) return <Navigate to={`/login?next=${encodeURIComponent(location.pathname + location.search)}`} replace />;
  return <Outlet />;
}
