// Webhooks: signed HTTP calls to other systems when events happen. Enable or disable in place; a
// webhook Parley disabled (failing for a day) says why.
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { api, unwrap } from '../../../api/client';
import { keys } from '../../../api/keys';
import { t } from '../../../i18n/t';
import { Badge } from '../../../ui/Badge';
import { Button } from '../../../ui/Button';
import { EmptyState } from '../../../ui/EmptyState';
import { Card, Page } from '../../../ui/Page';
import { QueryState } from '../../../ui/QueryState';
import { Switch } from '../../../ui/Switch';
import { toast } from '../../../ui/Toast';
import { ago } from '../../inbox/format';
import { AdminBack, DataTable, DeleteDialog, RowActions, useAdminMutation, useEditing } from '../crud';
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
  const state = useEditing<Webhook>();
  const [secret, setSecret] = useState<string | null>(null);
  const toggle = useToggleWebhook();
  const remove = useAdminMutation(
    (webhook: Webhook) => unwrap(api.DELETE('/api/v1/webhooks/{id}', { params: { path: { id: webhook.id } } })),
    {
      invalidate: [['webhooks']],
      done: t('admin.deleted'),
    },
  );
  return (
    <Page
      title={t('admin.webhooks.title')}
      description={t('admin.webhooks.hint')}
      back={<AdminBack />}
      actions={
        <Button variant="primary" onClick={state.create}>
          {t('admin.webhooks.new')}
        </Button>
      }
    >
      <Card>
        <QueryState
          query={webhooks}
          isEmpty={(list) => list.length === 0}
          empty={
            <EmptyState title={t('admin.webhooks.empty')} action={<Button onClick={state.create}>{t('admin.webhooks.new')}</Button>} />
          }
        >
          {(list) => (
            <DataTable
              caption={t('admin.webhooks.title')}
              rows={list}
              rowKey={(webhook) => webhook.id}
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
                {
                  key: 'health',
                  header: t('admin.webhooks.health'),
                  optional: true,
                  render: (webhook) => <WebhookHealth webhook={webhook} />,
                },
                {
                  key: 'enabled',
                  header: t('admin.enabled'),
                  render: (webhook) => (
                    <Switch
                      checked={webhook.enabled}
                      labelHidden
                      label={t('admin.webhooks.enableNamed', { name: webhook.name })}
                      disabled={toggle.isPending}
                      onCheckedChange={(enabled) =>
                        toggle.mutate({ webhook, enabled }, { onError: (error) => toast(error.message, 'error') })
                      }
                    />
                  ),
                },
              ]}
              actions={(webhook) => (
                <RowActions name={webhook.name} onEdit={() => state.edit(webhook)} onDelete={() => state.askDelete(webhook)} />
              )}
            />
          )}
        </QueryState>
      </Card>
      <WebhookDialog open={state.editing !== null} webhook={state.editing?.record ?? null} onClose={state.close} onSecret={setSecret} />
      <SecretDialog secret={secret} onClose={() => setSecret(null)} />
      <DeleteDialog
        name={state.deleting?.name ?? ''}
        open={state.deleting !== null}
        onClose={state.closeDelete}
        message={t('admin.webhooks.deleteConfirm', { name: state.deleting?.name ?? '' })}
        onConfirm={() => (state.deleting ? remove.mutateAsync(state.deleting) : Promise.resolve())}
      />
    </Page>
  );
}
