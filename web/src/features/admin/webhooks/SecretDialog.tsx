import { t } from '../../../i18n/t';
import { Button } from '../../../ui/Button';
import { CopyField } from '../../../ui/CopyField';
import { Dialog } from '../../../ui/Dialog';

/** A webhook's signing secret, the one time Parley shows it (creation, rotation). */
export function SecretDialog({ secret, onClose }: { secret: string | null; onClose: () => void }) {
  return (
    <Dialog
      open={secret !== null}
      onOpenChange={(open) => (open ? null : onClose())}
      title={t('admin.webhooks.secret')}
      footer={
        <Button variant="primary" onClick={onClose}>
          {t('admin.webhooks.secretCopied')}
        </Button>
      }
    >
      <div className="form-stack">
        <p className="notice">{t('admin.secretOnce')}</p>
        <CopyField label={t('admin.webhooks.secret')} value={secret ?? ''} />
        <p className="cell-muted">{t('admin.webhooks.secretUse')}</p>
      </div>
    </Dialog>
  );
}
