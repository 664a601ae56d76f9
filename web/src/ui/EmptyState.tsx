import type { ReactNode } from 'react';

export function EmptyState({ title, hint, action }: { title: string; hint?: string; action?: ReactNode }) {
  return (
    <div className="ui-empty">
      <p className="ui-empty__title">{title}</p>
      {hint ? <p className="ui-empty__hint">{hint}</p> : null}
      {action}
    </div>
  );
}
