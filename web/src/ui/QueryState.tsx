// The three states every list or detail shows before its content: loading, failed (with a retry)
// and empty. `children` renders only with data that is not empty.
import type { ReactNode } from 'react';
import { t } from '../i18n/t';
import { Button } from './Button';
import { EmptyState } from './EmptyState';
import { Loading } from './Spinner';

export interface QueryLike<T> {
  isPending: boolean;
  isError: boolean;
  error: Error | null;
  data: T | undefined;
  refetch: () => unknown;
}

export function QueryState<T>({
  query,
  isEmpty,
  empty,
  children,
}: {
  query: QueryLike<T>;
  isEmpty?: (data: T) => boolean;
  empty?: ReactNode;
  children: (data: T) => ReactNode;
}) {
  if (query.isPending) return <Loading />;
  if (query.isError || query.data === undefined)
    return (
      <EmptyState
        title={t('app.error')}
        hint={query.error?.message}
        action={<Button onClick={() => query.refetch()}>{t('app.retry')}</Button>}
      />
    );
  if (isEmpty?.(query.data)) return <>{empty}</>;
  return <>{children(query.data)}</>;
}
