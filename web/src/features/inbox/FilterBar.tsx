// The list's filters and sort. Status, priority, tag and assignee each take several values (the
// API matches any of them), ticked in a menu that stays open; everything lives in the URL.
import { ArrowDown, ArrowUp, ChevronDown } from 'lucide-react';
import { useAgents, usePriorities, useStatuses, useTags } from '../../api/reference';
import { t } from '../../i18n/t';
import { Button } from '../../ui/Button';
import { DropdownMenu, type MenuEntry } from '../../ui/DropdownMenu';
import { Select } from '../../ui/Select';
import { can, displayName, useAgent } from '../auth/session';
import {
  type ConversationFilters,
  hasAssigneeFilter,
  hasNoAgentFilter,
  type ListView,
  type MultiFilter,
  ORDER_BY,
  UNASSIGNED,
} from './views';

interface Option {
  value: string;
  label: string;
}

/**
 * A filter of several values: a button naming the filter and what it holds ("Status: Open +1"),
 * opening a menu of checkbox items. `exclusive` is a value that stands alone (no agent).
 */
function FilterMenu({
  label,
  anyLabel,
  options,
  value,
  onChange,
  exclusive,
}: {
  label: string;
  anyLabel: string;
  options: readonly Option[];
  value: readonly string[];
  onChange: (value: string[]) => void;
  exclusive?: string;
}) {
  const names = value.map((v) => options.find((option) => option.value === v)?.label ?? v);
  const [first = anyLabel, ...rest] = names;
  const summary = rest.length ? t('inbox.filter.several', { first, n: rest.length }) : first;
  const toggle = (v: string) => {
    if (value.includes(v)) return onChange(value.filter((x) => x !== v));
    if (v === exclusive) return onChange([v]);
    // Kept in the options' order, so the same choice is always the same URL.
    const next = new Set([...value.filter((x) => x !== exclusive), v]);
    const known = options.map((option) => option.value).filter((x) => next.has(x));
    onChange([...known, ...[...next].filter((x) => !known.includes(x))]);
  };
  const entries: MenuEntry[] = [
    { label: anyLabel, checked: value.length === 0, onSelect: () => onChange([]) },
    { kind: 'separator' },
    ...options.map((option) => ({
      id: option.value,
      label: option.label,
      checked: value.includes(option.value),
      keepOpen: true,
      onSelect: () => toggle(option.value),
    })),
  ];
  return (
    <DropdownMenu
      trigger={
        <Button size="sm" className={value.length ? 'inbox__filter inbox__filter--on' : 'inbox__filter'}>
          {t('inbox.filter.button', { label, value: summary })}
          <ChevronDown size={14} aria-hidden />
        </Button>
      }
      entries={entries}
    />
  );
}

export function FilterBar({
  view,
  filters,
  setParam,
}: {
  view: ListView;
  filters: ConversationFilters;
  setParam: (name: string, value: string | readonly string[] | null) => void;
}) {
  const agent = useAgent();
  const statuses = useStatuses();
  const priorities = usePriorities();
  const tags = useTags();
  const agents = useAgents();
  const readAll = can(agent, 'conversations:read_all');
  const byAssignee = hasAssigneeFilter(view, readAll);
  const noAgent = hasNoAgentFilter(view, { readAll, readUnassigned: can(agent, 'conversations:read_unassigned') });
  const multi = (name: MultiFilter, label: string, anyLabel: string, options: readonly Option[], exclusive?: string) => (
    <FilterMenu
      label={label}
      anyLabel={anyLabel}
      options={options}
      value={filters[name]}
      onChange={(value) => setParam(name, value)}
      exclusive={exclusive}
    />
  );
  const names = (list: readonly { name: string }[] | undefined) => (list ?? []).map(({ name }) => ({ value: name, label: name }));

  return (
    <>
      {multi('status', t('inbox.filter.status'), t('inbox.filter.any'), names(statuses.data))}
      {multi('priority', t('inbox.filter.priority'), t('inbox.filter.any'), names(priorities.data))}
      {(tags.data ?? []).length > 0 ? multi('tag', t('inbox.filter.tag'), t('inbox.filter.any'), names(tags.data)) : null}
      {byAssignee
        ? multi(
            'assignee',
            t('inbox.filter.assignee'),
            t('inbox.filter.anyone'),
            [
              ...(noAgent ? [{ value: UNASSIGNED, label: t('inbox.filter.noAgent') }] : []),
              ...(agents.data ?? []).map((a) => ({ value: String(a.id), label: displayName(a) })),
            ],
            UNASSIGNED,
          )
        : null}
      <Select
        size="sm"
        aria-label={t('inbox.sort')}
        value={filters.order_by}
        options={ORDER_BY.map((o) => ({ value: o, label: t(`inbox.sort.${o}`) }))}
        onValueChange={(value) => setParam('order_by', value)}
      />
      <Button
        size="sm"
        variant="ghost"
        icon
        aria-label={t('inbox.order.toggle')}
        title={t(`inbox.order.${filters.order}`)}
        onClick={() => setParam('order', filters.order === 'desc' ? 'asc' : 'desc')}
      >
        {filters.order === 'desc' ? <ArrowDown size={16} aria-hidden /> : <ArrowUp size={16} aria-hidden />}
      </Button>
    </>
  );
}
