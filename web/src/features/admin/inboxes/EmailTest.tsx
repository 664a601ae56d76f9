// "Test connection": tries the draft's IMAP and SMTP settings (saved or not) against the real
// servers and shows what each answered. A masked password stands for the stored one, as on Save.
import { useMutation } from '@tanstack/react-query';
import { api, type Schemas, unwrap } from '../../../api/client';
import { t } from '../../../i18n/t';
import { Badge } from '../../../ui/Badge';
import { Button } from '../../../ui/Button';
import { Card, ErrorBanner } from '../../../ui/Page';
import type { EmailConfig } from './draft';

type Check = Schemas['EmailConnectionCheck'];

function Result({ which, check }: { which: 'imap' | 'smtp'; check: Check }) {
  return (
    <div className="details__row">
      <dt>{t(`admin.inboxes.${which}`)}</dt>
      <dd>
        <Badge tone={check.ok ? 'success' : 'danger'}>{t(check.ok ? 'admin.inboxes.testOk' : 'admin.inboxes.testFailed')}</Badge>{' '}
        <span className={check.ok ? undefined : 'danger-text'}>{check.message}</span>
      </dd>
    </div>
  );
}

export function EmailTest({ inboxId, config }: { inboxId: number; config: EmailConfig }) {
  const test = useMutation({
    mutationFn: () =>
      unwrap(
        api.POST('/api/v1/inboxes/{id}/email/test', {
          params: { path: { id: inboxId } },
          body: { imap: config.imap, smtp: config.smtp },
        }),
      ),
  });
  return (
    <Card title={t('admin.inboxes.test')}>
      <div className="form-stack">
        <p className="muted">{t('admin.inboxes.testHint')}</p>
        <div>
          <Button onClick={() => test.mutate()} loading={test.isPending} disabled={test.isPending}>
            {test.isPending ? t('admin.inboxes.testing') : t('admin.inboxes.test')}
          </Button>
        </div>
        <ErrorBanner message={test.error?.message} />
        {test.data && !test.isPending ? (
          <dl className="details" aria-live="polite">
            {test.data.imap ? <Result which="imap" check={test.data.imap} /> : null}
            {test.data.smtp ? <Result which="smtp" check={test.data.smtp} /> : null}
          </dl>
        ) : null}
      </div>
    </Card>
  );
}
