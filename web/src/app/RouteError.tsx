import { Link, useRouteError } from 'react-router';
import { t } from '../i18n/t';
import { EmptyState } from '../ui/EmptyState';

export function RouteError() {
  const error = useRouteError();
  return (
    <main className="page-centered">
      <EmptyState
        title={t('app.error')}
        hint={error instanceof Error ? error.message : undefined}
        action={<Link to="/">{t('app.backHome')}</Link>}
      />
    </main>
  );
}

export function NotFound() {
  return <EmptyState title={t('app.notFound')} action={<Link to="/">{t('app.backHome')}</Link>} />;
}
