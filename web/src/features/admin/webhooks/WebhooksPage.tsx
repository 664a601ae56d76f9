// Webhooks: signed HTTP calls to other systems when events happen. Enable or disable in place; a
// webhook Parley disabled (failing for a day) says why.
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { api, unwrap } from '../../../api/client';
import { keys } from '../../../api/keys';
import { t } from '../../../i18n/t';
import { Badge } from '../../../ui/Badge';
import { Switch } from '../../../ui/Switch';
import { toast } from '../../../ui/Toast';
import { ago } from '../../inbox/format';
import { useAdminMutation } from '../crud';
import { AdminListPage } from '../AdminListPage';
import { SecretDialog } from './SecretDialog';
import { type Webhook, WebhookDialog } from './WebhookDialog';
import './webhooks.css';

export function useToggleWebhook() {
  return useAdminMutation(
    ({ webhook, enabled }: { webhook: Webhook; enabled: boolean }) =>
      unwrap(api.PUT('/api/v1/webhooks/{id}/toggle', { params: { path: { id: webhook.id } }, body: { enabled } })),
    { invalidate: [['webhooks']], done: (saved) => (saved.enabled ? t('admin.webhooks.enabledDone') : t('admin.webhooks.disabledDone')) },
  );
}

export function WebhookHealth({ webhook }: { webhook: Webhook }) {
  if (webhook.disabled_reason) return <Badge tone="danger">{t('admin.webhooks.autoDisabled')}</Badge>;
  if (webhook.failing_since) return <Badge tone="warning">{t('admin.webhooks.failingSince', { when: ago(webhook.failing_since) })}</Badge>;
  return webhook.enabled ? <Badge tone="success">{t('admin.webhooks.healthy')}</Badge> : <Badge>{t('admin.disabled')}</Badge>;
}

export function WebhooksPage() {
  const webhooks = useQuery({ queryKey: keys.admin.webhooks, queryFn: () => unwrap(api.GET('/api/v1/webhooks')) });
  const [secret, setSecret] = useState<string | null>(null);
  const toggle = useToggleWebhook();
  return (
    <AdminListPage
      query={webhooks}
      title={t('admin.webhooks.title')}
      description={t('admin.webhooks.hint')}
      newLabel={t('admin.webhooks.new')}
      empty={t('admin.webhooks.empty')}
      remove={(webhook) => unwrap(api.DELETE('/api/v1/webhooks/{id}', { params: { path: { id: webhook.id } } }))}
      invalidate={[['webhooks']]}
      deleteMessage={(name) => t('admin.webhooks.deleteConfirm', { name })}
      dialog={({ open, record, onClose }) => <WebhookDialog open={open} webhook={record} onClose={onClose} onSecret={setSecret} />}
      columns={[
        {
          key: 'name',
          header: t('admin.field.name'),
          render: (webhook) => (
            <span>
              <Link to={`/admin/webhooks/${webhook.id}`} className="row-name">
                {webhook.name}
              </Link>
              <span className="row-sub">{webhook.url}</span>
            </span>
          ),
        },
        {
          key: 'events',
          header: t('admin.webhooks.events'),
          optional: true,
          render: (webhook) => t('admin.webhooks.eventCount', { n: webhook.events.length }),
        },
        { key: 'health', header: t('admin.webhooks.health'), optional: true, render: (webhook) => <WebhookHealth webhook={webhook} /> },
        {
          key: 'enabled',
          header: t('admin.enabled'),
          render: (webhook) => (
            <Switch
              checked={webhook.enabled}
              labelHidden
              label={t('admin.webhooks.enableNamed', { name: webhook.name })}
              disabled={toggle.isPending}
              onCheckedChange={(enabled) => toggle.mutate({ webhook, enabled }, { onError: (error) => toast(error.message, 'error') })}
            />
          ),
        },
      ]}
    >
      <SecretDialog secret={secret} onClose={() => setSecret(null)} />
    </AdminListPage>
  );
}
