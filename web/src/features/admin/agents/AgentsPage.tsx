// Agents: who may sign in, searched and paged; enable or disable one in place.
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { type Agent, api, unwrap } from '../../../api/client';
import { keys } from '../../../api/keys';
import { t } from '../../../i18n/t';
import { Avatar } from '../../../ui/Avatar';
import { Badge } from '../../../ui/Badge';
import { Button } from '../../../ui/Button';
import { EmptyState } from '../../../ui/EmptyState';
import { Input } from '../../../ui/Input';
import { ConfirmDialog } from '../../../ui/ConfirmDialog';
import { Card, Page, Toolbar } from '../../../ui/Page';
import { Pager } from '../../../ui/Pager';
import { QueryState } from '../../../ui/QueryState';
import { Switch } from '../../../ui/Switch';
import { toast } from '../../../ui/Toast';
import { displayName, useAgent } from '../../auth/session';
import { useDebounced } from '../../contacts/useDebounced';
import { ago } from '../../inbox/format';
import { AdminBack, DataTable, DeleteDialog, RowActions, useAdminMutation, useEditing } from '../crud';
import { AgentDialog } from './AgentDialog';
import { InviteButton, MailNotConfiguredNotice } from './InviteButton';

export function AgentsPage() {
  const me = useAgent();
  const [text, setText] = useState('');
  const q = useDebounced(text.trim());
  const [page, setPage] = useState(1);
  // A new search starts on its first page.
  // biome-ignore lint/correctness/useExhaustiveDependencies: reset when the settled query changes
  useEffect(() => setPage(1), [q]);
  const agents = useQuery({
    queryKey: keys.admin.agents({ q, page }),
    queryFn: () =>
      unwrap(
        api.GET('/api/v1/agents', {
          params: { query: { page, page_size: 30, order_by: 'first_name', order: 'asc', ...(q ? { q } : {}) } },
        }),
      ),
    placeholderData: keepPreviousData,
  });
  const state = useEditing<Agent>();
  // The agent whose two-factor sign-in is being reset (a lost phone), in the confirm dialog.
  const [resetting, setResetting] = useState<Agent | null>(null);
  const reset2fa = useAdminMutation(
    (agent: Agent) => unwrap(api.DELETE('/api/v1/agents/{id}/2fa', { params: { path: { id: agent.id } } })),
    { invalidate: [['agents']], done: t('admin.agents.reset2faDone') },
  );
  const remove = useAdminMutation((agent: Agent) => unwrap(api.DELETE('/api/v1/agents/{id}', { params: { path: { id: agent.id } } })), {
    invalidate: [['agents'], ['conversations']],
    done: t('admin.deleted'),
  });
  const toggle = useAdminMutation(
    ({ agent, enabled }: { agent: Agent; enabled: boolean }) =>
      unwrap(api.PUT('/api/v1/agents/{id}', { params: { path: { id: agent.id } }, body: { enabled } })),
    { invalidate: [['agents']], done: (saved) => (saved.enabled ? t('admin.agents.enabledDone') : t('admin.agents.disabledDone')) },
  );

  return (
    <Page
      title={t('admin.agents.title')}
      description={t('admin.agents.hint')}
      back={<AdminBack />}
      actions={
        <Button variant="primary" onClick={state.create}>
          {t('admin.agents.new')}
        </Button>
      }
    >
      <MailNotConfiguredNotice />
      <Toolbar label={t('admin.agents.search')}>
        <Input
          type="search"
          value={text}
          onChange={(e) => setText(e.target.value)}
          placeholder={t('admin.agents.searchPlaceholder')}
          aria-label={t('admin.agents.search')}
        />
      </Toolbar>
      <Card>
        <QueryState query={agents} isEmpty={(data) => data.results.length === 0} empty={<EmptyState title={t('admin.agents.empty')} />}>
          {(data) => (
            <>
              <DataTable
                caption={t('admin.agents.title')}
                rows={data.results}
                rowKey={(agent) => agent.id}
                columns={[
                  {
                    key: 'name',
                    header: t('admin.field.name'),
                    render: (agent) => (
                      <span className="agent-cell">
                        <Avatar
                          name={displayName(agent)}
                          src={agent.avatar_url}
                          size="sm"
                          status={agent.enabled ? agent.availability_status : undefined}
                        />
                        <span>
                          <span className="row-name">{displayName(agent)}</span>{' '}
                          {agent.two_factor_enabled ? (
                            <Badge tone="success" title={t('admin.agents.twoFactorTitle')}>
                              {t('admin.agents.twoFactor')}
                            </Badge>
                          ) : null}
                          <span className="row-sub">{agent.email}</span>
                        </span>
                      </span>
                    ),
                  },
                  {
                    key: 'roles',
                    header: t('admin.agents.roles'),
                    render: (agent) => (
                      <span className="chips">
                        {agent.roles.map((role) => (
                          <Badge key={role} tone={role === 'Admin' ? 'accent' : 'neutral'}>
                            {role}
                          </Badge>
                        ))}
                      </span>
                    ),
                  },
                  {
                    key: 'teams',
                    header: t('admin.agents.teams'),
                    optional: true,
                    render: (agent) =>
                      agent.teams.length ? (
                        agent.teams.map((team) => team.name).join(', ')
                      ) : (
                        <span className="cell-muted">{t('common.none')}</span>
                      ),
                  },
                  {
                    key: 'active',
                    header: t('admin.agents.lastActive'),
                    optional: true,
                    render: (agent) => (
                      <span className="cell-muted">{agent.last_active_at ? ago(agent.last_active_at) : t('admin.agents.never')}</span>
                    ),
                  },
                  {
                    key: 'enabled',
                    header: t('admin.enabled'),
                    render: (agent) => (
                      <Switch
                        checked={agent.enabled}
                        label={t('admin.agents.enableNamed', { name: displayName(agent) })}
                        labelHidden
                        disabled={agent.id === me.id || toggle.isPending}
                        onCheckedChange={(enabled) =>
                          toggle.mutate({ agent, enabled }, { onError: (error) => toast(error.message, 'error') })
                        }
                      />
                    ),
                  },
                ]}
                actions={(agent) => (
                  <>
                    <InviteButton agent={agent} />
                    {agent.two_factor_enabled && agent.id !== me.id ? (
                      <Button
                        size="sm"
                        variant="ghost"
                        onClick={() => setResetting(agent)}
                        aria-label={t('admin.agents.reset2faNamed', { name: displayName(agent) })}
                      >
                        {t('admin.agents.reset2fa')}
                      </Button>
                    ) : null}
                    <RowActions
                      name={displayName(agent)}
                      onEdit={() => state.edit(agent)}
                      onDelete={agent.id === me.id ? undefined : () => state.askDelete(agent)}
                    />
                  </>
                )}
              />
              <Pager page={data.page} pages={data.total_pages} onPage={setPage} />
            </>
          )}
        </QueryState>
      </Card>
      <AgentDialog
        open={state.editing !== null}
        agent={state.editing?.record ?? null}
        self={state.editing?.record?.id === me.id}
        onClose={state.close}
      />
      <ConfirmDialog
        open={resetting !== null}
        onOpenChange={(open) => (open ? null : setResetting(null))}
        title={t('admin.agents.reset2faTitle')}
        message={t('admin.agents.reset2faConfirm', { name: resetting ? displayName(resetting) : '' })}
        confirmLabel={t('admin.agents.reset2fa')}
        onConfirm={() => (resetting ? reset2fa.mutateAsync(resetting) : Promise.resolve())}
      />
      <DeleteDialog
        name={state.deleting ? displayName(state.deleting) : ''}
        open={state.deleting !== null}
        onClose={state.closeDelete}
        message={t('admin.agents.deleteConfirm', { name: state.deleting ? displayName(state.deleting) : '' })}
        onConfirm={() => (state.deleting ? remove.mutateAsync(state.deleting) : Promise.resolve())}
      />
    </Page>
  );
}
