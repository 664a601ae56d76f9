// Inboxes: every email address and live chat, enabled or disabled in place; open one to set it up.
import { useQuery } from '@tanstack/react-query';
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
import { AdminBack, DataTable, DeleteDialog, RowActions, useAdminMutation, useEditing } from '../crud';
import type { Inbox } from './draft';
import { NewInboxDialog } from './NewInboxDialog';

export function InboxesPage() {
  const inboxes = useQuery({ queryKey: keys.admin.inboxes, queryFn: () => unwrap(api.GET('/api/v1/inboxes')) });
  const state = useEditing<Inbox>();
  const toggle = useAdminMutation(
    ({ inbox, enabled }: { inbox: Inbox; enabled: boolean }) =>
      unwrap(api.PUT('/api/v1/inboxes/{id}/toggle', { params: { path: { id: inbox.id } }, body: { enabled } })),
    { invalidate: [['inboxes']], done: (saved) => (saved.enabled ? t('admin.inboxes.enabledDone') : t('admin.inboxes.disabledDone')) },
  );
  const remove = useAdminMutation((inbox: Inbox) => unwrap(api.DELETE('/api/v1/inboxes/{id}', { params: { path: { id: inbox.id } } })), {
    invalidate: [['inboxes'], ['conversations']],
    done: t('admin.deleted'),
  });
  return (
    <Page
      title={t('admin.inboxes.title')}
      description={t('admin.inboxes.hint')}
      back={<AdminBack />}
      actions={
        <Button variant="primary" onClick={state.create}>
          {t('admin.inboxes.new')}
        </Button>
      }
    >
      <Card>
        <QueryState
          query={inboxes}
          isEmpty={(list) => list.length === 0}
          empty={<EmptyState title={t('admin.inboxes.empty')} action={<Button onClick={state.create}>{t('admin.inboxes.new')}</Button>} />}
        >
          {(list) => (
            <DataTable
              caption={t('admin.inboxes.title')}
              rows={list}
              rowKey={(inbox) => inbox.id}
              columns={[
                {
                  key: 'name',
                  header: t('admin.field.name'),
                  render: (inbox) => (
                    <span>
                      <Link to={`/admin/inboxes/${inbox.id}`} className="row-name">
                        {inbox.name}
                      </Link>
                      {inbox.from ? <span className="row-sub">{inbox.from}</span> : null}
                    </span>
                  ),
                },
                {
                  key: 'channel',
                  header: t('admin.inboxes.channel'),
                  render: (inbox) => <Badge tone="accent">{t(`admin.inboxes.channel.${inbox.channel}`)}</Badge>,
                },
                {
                  key: 'csat',
                  header: t('admin.inboxes.csatShort'),
                  optional: true,
                  render: (inbox) => (inbox.csat_enabled ? t('admin.yes') : <span className="cell-muted">{t('admin.no')}</span>),
                },
                {
                  key: 'enabled',
                  header: t('admin.enabled'),
                  render: (inbox) => (
                    <Switch
                      checked={inbox.enabled}
                      labelHidden
                      label={t('admin.inboxes.enableNamed', { name: inbox.name })}
                      disabled={toggle.isPending}
                      onCheckedChange={(enabled) =>
                        toggle.mutate({ inbox, enabled }, { onError: (error) => toast(error.message, 'error') })
                      }
                    />
                  ),
                },
              ]}
              actions={(inbox) => <RowActions name={inbox.name} onDelete={() => state.askDelete(inbox)} />}
            />
          )}
        </QueryState>
      </Card>
      <NewInboxDialog open={state.editing !== null} onClose={state.close} />
      <DeleteDialog
        name={state.deleting?.name ?? ''}
        open={state.deleting !== null}
        onClose={state.closeDelete}
        message={t('admin.inboxes.deleteConfirm', { name: state.deleting?.name ?? '' })}
        onConfirm={() => (state.deleting ? remove.mutateAsync(state.deleting) : Promise.resolve())}
      />
    </Page>
  );
}
