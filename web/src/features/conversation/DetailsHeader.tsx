// The details panel's title bar: its name and a close button (over the thread on a narrow screen,
// the panel would otherwise hide its own toggle with no way out but Escape).
import { X } from 'lucide-react';
import { t } from '../../i18n/t';
import { Button } from '../../ui/Button';

export function DetailsHeader({ onClose, focusClose }: { onClose: () => void; focusClose: boolean }) {
  return (
    <div className="details__header">
      <h2 className="details__title">{t('sidebar.label')}</h2>
      <Button
        size="sm"
        variant="ghost"
        icon
        aria-label={t('sidebar.close')}
        title={t('sidebar.close')}
        onClick={onClose}
        autoFocus={focusClose}
      >
        <X size={16} aria-hidden />
      </Button>
    </div>
  );
}
