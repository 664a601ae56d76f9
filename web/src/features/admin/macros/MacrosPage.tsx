// Macros: one click to set a conversation's fields and write a reply. Admins see every macro.
import { useQuery } from '@tanstack/react-query';
import { api, type Macro, unwrap } from '../../../api/client';
import { keys } from '../../../api/keys';
import { useAgents, useTeams } from '../../../api/reference';
import { t } from '../../../i18n/t';
import { Badge } from '../../../ui/Badge';
import { AdminListPage } from '../AdminListPage';
import { ACTION_TYPES } from './ActionsEditor';
import { MacroDialog } from './MacroDialog';
import './macros.css';

export function MacrosPage() {
  const macros = useQuery({ queryKey: keys.admin.macros, queryFn: () => unwrap(api.GET('/api/v1/macros')) });
  const teams = useTeams();
  const agents = useAgents();
  const owner = (macro: Macro) => {
    if (macro.visibility === 'team') return teams.data?.find((team) => String(team.id) === macro.team_id)?.name ?? `#${macro.team_id}`;
    if (macro.visibility === 'user') {
      const agent = agents.data?.find((a) => String(a.id) === macro.user_id);
      return agent ? `${agent.first_name} ${agent.last_name}`.trim() : `#${macro.user_id}`;
    }
    return null;
  };
  return (
    <AdminListPage
      query={macros}
      title={t('admin.macros.title')}
      description={t('admin.macros.hint')}
      newLabel={t('admin.macros.new')}
      empty={t('admin.macros.empty')}
      remove={(macro) => unwrap(api.DELETE('/api/v1/macros/{id}', { params: { path: { id: macro.id } } }))}
      invalidate={[['macros']]}
      dialog={({ open, record, onClose }) => <MacroDialog open={open} macro={record} onClose={onClose} />}
      columns={[
        { key: 'name', header: t('admin.field.name'), render: (macro) => <span className="row-name">{macro.name}</span> },
        {
          key: 'visibility',
          header: t('admin.macros.visibility'),
          render: (macro) => (
            <span className="chips">
              <Badge tone={macro.visibility === 'global' ? 'accent' : 'neutral'}>{t(`admin.macros.visibility.${macro.visibility}`)}</Badge>
              {owner(macro) ? <span className="cell-muted">{owner(macro)}</span> : null}
            </span>
          ),
        },
        {
          key: 'actions',
          header: t('admin.macros.actions'),
          optional: true,
          render: (macro) => {
            const types = ACTION_TYPES.filter((type) => macro.actions[type] !== undefined);
            return types.length === 0 ? (
              <span className="cell-muted">{t('common.none')}</span>
            ) : (
              <span className="chips">
                {types.map((type) => (
                  <Badge key={type}>{t(`admin.macros.action.${type}`)}</Badge>
                ))}
              </span>
            );
          },
        },
        { key: 'usage', header: t('admin.macros.usage'), optional: true, numeric: true, render: (macro) => macro.usage_count },
      ]}
    />
  );
}
