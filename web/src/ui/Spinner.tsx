import { t } from '../i18n/t';

export function Spinner({ size = 'md', label }: { size?: 'sm' | 'md' | 'lg'; label?: string }) {
  return <output className={`ui-spinner ui-spinner--${size}`} aria-label={label ?? t('app.loading')} />;
}

/** A whole area waiting for its data. */
export function Loading({ label }: { label?: string }) {
  return (
    <div className="ui-loading">
      <Spinner size="lg" label={label} />
    </div>
  );
}
