import { usePriorities, useStatuses } from '../../api/reference';
import { t } from '../../i18n/t';
import { Button } from '../../ui/Button';
import { DropdownMenu } from '../../ui/DropdownMenu';
import { useAgent } from '../auth/session';
import type { Change } from '../conversation/changes';

/** Actions on the selected conversations: status (no snooze: that needs a time), priority, assign to me. */
export function BulkBar({ count, onChange, onClear }: { count: number; onChange: (change: Change) => void; onClear: () => void }) {
  const statuses = useStatuses();
  const priorities = usePriorities();
  const agent = useAgent();
  return (
    <div className="bulkbar" role="toolbar" aria-label={t('inbox.selected', { n: count })}>
      <span className="bulkbar__count">{t('inbox.selected', { n: count })}</span>
      <DropdownMenu
        trigger={<Button size="sm">{t('inbox.bulk.status')}</Button>}
        entries={(statuses.data ?? [])
          .filter((status) => status.category !== 'waiting')
          .map((status) => ({ label: status.name, onSelect: () => onChange({ kind: 'status', status: status.name }) }))}
      />
      <DropdownMenu
        trigger={<Button size="sm">{t('inbox.bulk.priority')}</Button>}
        entries={(priorities.data ?? []).map((priority) => ({
          label: priority.name,
          onSelect: () => onChange({ kind: 'priority', priority: priority.name }),
        }))}
      />
      <Button size="sm" onClick={() => onChange({ kind: 'assignee', id: agent.id })}>
        {t('inbox.bulk.assignMe')}
      </Button>
      <Button size="sm" variant="ghost" onClick={onClear}>
        {t('inbox.bulk.clear')}
      </Button>
    </div>
  );
}
