// Teams: the queues conversations are routed to.
import { api, unwrap } from '../../../api/client';
import { t } from '../../../i18n/t';
import { Badge } from '../../../ui/Badge';
import { Button } from '../../../ui/Button';
import { EmptyState } from '../../../ui/EmptyState';
import { Card, Page } from '../../../ui/Page';
import { QueryState } from '../../../ui/QueryState';
import { AdminBack, DataTable, DeleteDialog, RowActions, useAdminMutation, useEditing } from '../crud';
import { useBusinessHoursList, useFullTeams, useSlaPolicies } from '../fields';
import { type Team, TeamDialog } from './TeamDialog';

export function TeamsPage() {
  const teams = useFullTeams();
  const hours = useBusinessHoursList();
  const policies = useSlaPolicies();
  const state = useEditing<Team>();
  const remove = useAdminMutation((team: Team) => unwrap(api.DELETE('/api/v1/teams/{id}', { params: { path: { id: team.id } } })), {
    invalidate: [['teams'], ['conversations']],
    done: t('admin.deleted'),
  });
  const nameOf = (list: ReadonlyArray<{ id: number; name: string }> | undefined, id: number | null) =>
    id === null ? null : (list?.find((item) => item.id === id)?.name ?? `#${id}`);

  return (
    <Page
      title={t('admin.teams.title')}
      description={t('admin.teams.hint')}
      back={<AdminBack />}
      actions={
        <Button variant="primary" onClick={state.create}>
          {t('admin.teams.new')}
        </Button>
      }
    >
      <Card>
        <QueryState
          query={teams}
          isEmpty={(list) => list.length === 0}
          empty={<EmptyState title={t('admin.teams.empty')} action={<Button onClick={state.create}>{t('admin.teams.new')}</Button>} />}
        >
          {(list) => (
            <DataTable
              caption={t('admin.teams.title')}
              rows={list}
              rowKey={(team) => team.id}
              columns={[
                {
                  key: 'name',
                  header: t('admin.field.name'),
                  render: (team) => (
                    <span className="row-name">
                      {team.emoji ? <span aria-hidden>{team.emoji} </span> : null}
                      {team.name}
                    </span>
                  ),
                },
                {
                  key: 'assignment',
                  header: t('admin.teams.assignment'),
                  render: (team) => (
                    <Badge tone={team.conversation_assignment_type === 'round_robin' ? 'accent' : 'neutral'}>
                      {t(`admin.teams.assignment.${team.conversation_assignment_type}`)}
                    </Badge>
                  ),
                },
                {
                  key: 'hours',
                  header: t('admin.hours.one'),
                  optional: true,
                  render: (team) =>
                    nameOf(hours.data, team.business_hours_id) ?? <span className="cell-muted">{t('admin.teams.defaultHours')}</span>,
                },
                {
                  key: 'sla',
                  header: t('admin.sla.one'),
                  optional: true,
                  render: (team) => nameOf(policies.data, team.sla_policy_id) ?? <span className="cell-muted">{t('common.none')}</span>,
                },
              ]}
              actions={(team) => <RowActions name={team.name} onEdit={() => state.edit(team)} onDelete={() => state.askDelete(team)} />}
            />
          )}
        </QueryState>
      </Card>
      <TeamDialog open={state.editing !== null} team={state.editing?.record ?? null} onClose={state.close} />
      <DeleteDialog
        name={state.deleting?.name ?? ''}
        open={state.deleting !== null}
        onClose={state.closeDelete}
        message={t('admin.teams.deleteConfirm', { name: state.deleting?.name ?? '' })}
        onConfirm={() => (state.deleting ? remove.mutateAsync(state.deleting) : Promise.resolve())}
      />
    </Page>
  );
}
