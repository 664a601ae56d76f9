// One webhook: its address and events, enable/disable, a test delivery, secret rotation (shown
// once), and the delivery log.
import { ArrowLeft } from 'lucide-react';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { api, unwrap } from '../../../api/client';
import { keys } from '../../../api/keys';
import { t } from '../../../i18n/t';
import { Button } from '../../../ui/Button';
import { ConfirmDialog } from '../../../ui/ConfirmDialog';
import { EmptyState } from '../../../ui/EmptyState';
import { Card, Page } from '../../../ui/Page';
import { Loading } from '../../../ui/Spinner';
import { Switch } from '../../../ui/Switch';
import { toast } from '../../../ui/Toast';
import { dateTime } from '../../inbox/format';
import { useAdminMutation } from '../crud';
import { Deliveries } from './Deliveries';
import { SecretDialog } from './SecretDialog';
import { WebhookDialog } from './WebhookDialog';
import { useToggleWebhook, WebhookHealth } from './WebhooksPage';
import './webhooks.css';

export function WebhookPage() {
  const id = Number(useParams().id);
  const webhook = useQuery({
    queryKey: [...keys.admin.webhooks, id],
    queryFn: () => unwrap(api.GET('/api/v1/webhooks/{id}', { params: { path: { id } } })),
  });
  const [editing, setEditing] = useState(false);
  const [rotating, setRotating] = useState(false);
  const [secret, setSecret] = useState<string | null>(null);
  const toggle = useToggleWebhook();
  const test = useAdminMutation(() => unwrap(api.POST('/api/v1/webhooks/{id}/test', { params: { path: { id } } })), {
    invalidate: [['webhooks']],
    done: (result) => t('admin.webhooks.tested', { status: t(`admin.webhooks.status.${result.status}`) }),
  });
  const rotate = useAdminMutation(() => unwrap(api.POST('/api/v1/webhooks/{id}/secret/rotate', { params: { path: { id } } })), {
    invalidate: [['webhooks']],
  });
  const back = (
    <Link to="/admin/webhooks">
      <ArrowLeft size={16} aria-hidden /> {t('admin.webhooks.title')}
    </Link>
  );
  if (webhook.isPending) return <Loading />;
  if (webhook.isError)
    return (
      <Page title={t('admin.webhooks.notFound')} back={back}>
        <EmptyState title={t('admin.webhooks.notFound')} hint={webhook.error.message} />
      </Page>
    );
  const record = webhook.data;
  return (
    <Page
      title={record.name}
      back={back}
      description={<WebhookHealth webhook={record} />}
      actions={
        <>
          <Button onClick={() => test.mutate(undefined, { onError: (error) => toast(error.message, 'error') })} loading={test.isPending}>
            {t('admin.webhooks.test')}
          </Button>
          <Button onClick={() => setRotating(true)}>{t('admin.webhooks.rotate')}</Button>
          <Button variant="primary" onClick={() => setEditing(true)}>
            {t('admin.edit')}
          </Button>
        </>
      }
    >
      <Card>
        <div className="form-stack">
          <dl className="details">
            <div className="details__row">
              <dt>{t('admin.webhooks.url')}</dt>
              <dd>
                <code>{record.url}</code>
              </dd>
            </div>
            <div className="details__row">
              <dt>{t('admin.webhooks.events')}</dt>
              <dd className="chips">
                {record.events.map((event) => (
                  <code key={event} className="event-chip">
                    {event}
                  </code>
                ))}
              </dd>
            </div>
            {record.disabled_reason ? (
              <div className="details__row">
                <dt>{t('admin.webhooks.disabledReason')}</dt>
                <dd className="danger-text">{record.disabled_reason}</dd>
              </div>
            ) : null}
            {record.failing_since ? (
              <div className="details__row">
                <dt>{t('admin.webhooks.failing')}</dt>
                <dd>{dateTime(record.failing_since)}</dd>
              </div>
            ) : null}
          </dl>
          <Switch
            checked={record.enabled}
            onCheckedChange={(enabled) =>
              toggle.mutate({ webhook: record, enabled }, { onError: (error) => toast(error.message, 'error') })
            }
            label={t('admin.enabled')}
            hint={t('admin.webhooks.enabledHint')}
          />
        </div>
      </Card>
      <Deliveries webhookId={id} />
      <WebhookDialog open={editing} webhook={record} onClose={() => setEditing(false)} onSecret={setSecret} />
      <SecretDialog secret={secret} onClose={() => setSecret(null)} />
      <ConfirmDialog
        open={rotating}
        onOpenChange={setRotating}
        title={t('admin.webhooks.rotate')}
        message={t('admin.webhooks.rotateConfirm')}
        confirmLabel={t('admin.webhooks.rotate')}
        onConfirm={async () => setSecret((await rotate.mutateAsync()).secret)}
      />
    </Page>
  );
}
