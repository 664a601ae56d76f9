// Teams: the queues conversations are routed to.
import { api, unwrap } from '../../../api/client';
import { t } from '../../../i18n/t';
import { Badge } from '../../../ui/Badge';
import { AdminListPage } from '../AdminListPage';
import { useBusinessHoursList, useFullTeams, useSlaPolicies } from '../fields';
import { TeamDialog } from './TeamDialog';
import { teamEmoji } from '../../../ui/glyph';

export function TeamsPage() {
  const teams = useFullTeams();
  const hours = useBusinessHoursList();
  const policies = useSlaPolicies();
  const nameOf = (list: ReadonlyArray<{ id: number; name: string }> | undefined, id: number | null) =>
    id === null ? null : (list?.find((item) => item.id === id)?.name ?? `#${id}`);
  return (
    <AdminListPage
      query={teams}
      title={t('admin.teams.title')}
      description={t('admin.teams.hint')}
      newLabel={t('admin.teams.new')}
      empty={t('admin.teams.empty')}
      remove={(team) => unwrap(api.DELETE('/api/v1/teams/{id}', { params: { path: { id: team.id } } }))}
      invalidate={[['teams'], ['conversations']]}
      deleteMessage={(name) => t('admin.teams.deleteConfirm', { name })}
      dialog={({ open, record, onClose }) => <TeamDialog open={open} team={record} onClose={onClose} />}
      columns={[
        {
          key: 'name',
          header: t('admin.field.name'),
          render: (team) => (
            <span className="row-name">
              {teamEmoji(team) ? <span aria-hidden>{teamEmoji(team)} </span> : null}
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
    />
  );
}
