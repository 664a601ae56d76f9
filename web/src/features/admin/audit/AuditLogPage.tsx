// The audit log: who changed what, when and from where, newest first. Filters live in the address
// (a filtered view can be shared), a row opens to show its changes side by side, and "Export CSV"
// downloads what the filters select, all pages (the server streams it).
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { ChevronDown, ChevronRight, Download } from 'lucide-react';
import { Fragment, useState } from 'react';
import { useSearchParams } from 'react-router';
import { api, type Schemas, unwrap } from '../../../api/client';
import { keys } from '../../../api/keys';
import { useAgents } from '../../../api/reference';
import { isMessageKey, t } from '../../../i18n/t';
import { Badge } from '../../../ui/Badge';
import { Button } from '../../../ui/Button';
import { EmptyState } from '../../../ui/EmptyState';
import { Input } from '../../../ui/Input';
import { Card, Page, Toolbar } from '../../../ui/Page';
import { Pager } from '../../../ui/Pager';
import { QueryState } from '../../../ui/QueryState';
import { Select } from '../../../ui/Select';
import { dateTime } from '../../inbox/format';
import { AuditChanges } from './AuditChanges';
import { type AuditFilters, exportUrl, FILTER_NAMES, listQuery } from './filters';
import './audit.css';

type Entry = Schemas['AuditEntry'];
const ANY = 'any';
const PAGE_SIZE = 50;

export function actionLabel(action: string): string {
  const key = `audit.action.${action}`;
  return isMessageKey(key) ? t(key) : action;
}

export function resourceLabel(type: string): string {
  const key = `audit.resource.${type}`;
  return isMessageKey(key) ? t(key) : type;
}

function ActorCell({ actor }: { actor: Entry['actor'] }) {
  return (
    <span className="audit-actor">
      <span>{actor.name || t(`audit.actor.${actor.type}`)}</span>
      {/* An agent and the system are named by their name alone; a key or a rule says what it is. */}
      {actor.type === 'api_key' || actor.type === 'automation' ? <Badge>{t(`audit.actor.${actor.type}`)}</Badge> : null}
    </span>
  );
}

function EntryRow({ entry, open, onToggle }: { entry: Entry; open: boolean; onToggle: () => void }) {
  const detailsId = `audit-entry-${entry.id}`;
  return (
    <Fragment>
      <tr className={open ? 'audit-row audit-row--open' : 'audit-row'}>
        <td>
          <Button
            size="sm"
            variant="ghost"
            icon
            aria-expanded={open}
            aria-controls={detailsId}
            aria-label={open ? t('audit.hideChanges') : t('audit.showChanges')}
            onClick={onToggle}
          >
            {open ? <ChevronDown size={16} aria-hidden /> : <ChevronRight size={16} aria-hidden />}
          </Button>
        </td>
        <td className="cell-muted audit-when">{dateTime(entry.created_at)}</td>
        <td>
          <ActorCell actor={entry.actor} />
        </td>
        <td>
          <span className="audit-action" title={entry.action}>
            {actionLabel(entry.action)}
          </span>
          {/* On a phone the resource column gives way: its name goes under the action. */}
          <span className="audit-resource-inline">{entry.resource.name || (entry.resource.id ?? '')}</span>
        </td>
        <td className="col-optional">
          <span className="audit-resource">
            <code className="permission">{entry.resource.type}</code>
            <span>{entry.resource.name || (entry.resource.id ?? '')}</span>
          </span>
        </td>
        <td className="col-optional cell-muted">{entry.ip ?? '—'}</td>
      </tr>
      {open ? (
        <tr className="audit-details-row">
          <td colSpan={6} id={detailsId}>
            <AuditChanges entry={entry} />
          </td>
        </tr>
      ) : null}
    </Fragment>
  );
}

export function AuditLogPage() {
  const [params, setParams] = useSearchParams();
  const [open, setOpen] = useState<ReadonlySet<number>>(new Set());
  const filters: AuditFilters = Object.fromEntries(FILTER_NAMES.map((name) => [name, params.get(name) ?? ''])) as AuditFilters;
  const page = Math.max(1, Number(params.get('page')) || 1);
  const catalogue = useQuery({ queryKey: keys.admin.auditCatalogue, queryFn: () => unwrap(api.GET('/api/v1/audit-log/actions')) });
  const actions = catalogue.data?.actions ?? [];
  const query = listQuery(filters, actions);
  const agents = useAgents();
  const entries = useQuery({
    queryKey: keys.admin.auditLog({ ...query, page }),
    queryFn: () => unwrap(api.GET('/api/v1/audit-log', { params: { query: { ...query, page, page_size: PAGE_SIZE } } })),
    placeholderData: keepPreviousData,
    // An action from the address is checked against the catalogue first.
    enabled: filters.action === '' || catalogue.isSuccess,
  });

  function setFilter(name: keyof AuditFilters | 'page', value: string) {
    const next = new URLSearchParams(params);
    if (value === '' || value === ANY) next.delete(name);
    else next.set(name, value);
    if (name !== 'page') next.delete('page');
    setParams(next, { replace: true });
    setOpen(new Set());
  }

  function toggle(id: number) {
    setOpen((current) => {
      const next = new Set(current);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
  }

  const filtered = FILTER_NAMES.some((name) => filters[name] !== '');
  return (
    <Page
      title={t('audit.title')}
      description={t('audit.intro')}
      actions={
        <a className="ui-button ui-button--secondary ui-button--md audit-export" href={exportUrl(filters, actions)} download>
          <Download size={16} aria-hidden />
          {t('audit.export')}
        </a>
      }
    >
      <Toolbar label={t('audit.filters')}>
        <div className="audit-filters">
          <Select
            size="sm"
            aria-label={t('audit.filter.action')}
            value={filters.action || ANY}
            onValueChange={(value) => setFilter('action', value)}
            options={[
              { value: ANY, label: t('audit.filter.anyAction') },
              ...actions.map((action) => ({ value: action, label: actionLabel(action) })),
            ]}
          />
          <Select
            size="sm"
            aria-label={t('audit.filter.actor')}
            value={filters.actor || ANY}
            onValueChange={(value) => setFilter('actor', value)}
            options={[
              { value: ANY, label: t('audit.filter.anyActor') },
              { value: 'system', label: t('audit.filter.system') },
              { value: 'automation', label: t('audit.filter.automations') },
              ...(agents.data ?? []).map((agent) => ({ value: String(agent.id), label: `${agent.first_name} ${agent.last_name}`.trim() })),
            ]}
          />
          <Select
            size="sm"
            aria-label={t('audit.filter.resource')}
            value={filters.resource_type || ANY}
            onValueChange={(value) => setFilter('resource_type', value)}
            options={[
              { value: ANY, label: t('audit.filter.anyResource') },
              ...(catalogue.data?.resource_types ?? []).map((type) => ({ value: type, label: resourceLabel(type) })),
            ]}
          />
          <span className="audit-filters__date">
            <label htmlFor="audit-from">{t('audit.filter.from')}</label>
            <Input
              id="audit-from"
              type="date"
              value={filters.from}
              max={filters.to || undefined}
              onChange={(e) => setFilter('from', e.target.value)}
            />
          </span>
          <span className="audit-filters__date">
            <label htmlFor="audit-to">{t('audit.filter.to')}</label>
            <Input
              id="audit-to"
              type="date"
              value={filters.to}
              min={filters.from || undefined}
              onChange={(e) => setFilter('to', e.target.value)}
            />
          </span>
          {filtered ? (
            <Button size="sm" variant="ghost" onClick={() => setParams(new URLSearchParams(), { replace: true })}>
              {t('audit.filter.clear')}
            </Button>
          ) : null}
        </div>
      </Toolbar>
      <Card>
        <QueryState
          query={entries}
          isEmpty={(data) => data.results.length === 0}
          empty={<EmptyState title={t('audit.empty')} hint={t('audit.emptyHint')} />}
        >
          {(data) => (
            <>
              <p className="cell-muted audit-total">{t('audit.total', { n: data.total })}</p>
              <table className="ui-table audit-table">
                <caption className="visually-hidden">{t('audit.entries')}</caption>
                <thead>
                  <tr>
                    <th scope="col">
                      <span className="visually-hidden">{t('audit.changes')}</span>
                    </th>
                    <th scope="col">{t('audit.col.when')}</th>
                    <th scope="col">{t('audit.col.actor')}</th>
                    <th scope="col">{t('audit.col.action')}</th>
                    <th scope="col" className="col-optional">
                      {t('audit.col.resource')}
                    </th>
                    <th scope="col" className="col-optional">
                      {t('audit.col.address')}
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {data.results.map((entry) => (
                    <EntryRow key={entry.id} entry={entry} open={open.has(entry.id)} onToggle={() => toggle(entry.id)} />
                  ))}
                </tbody>
              </table>
              <Pager page={data.page} pages={data.total_pages} onPage={(next) => setFilter('page', String(next))} />
            </>
          )}
        </QueryState>
      </Card>
    </Page>
  );
}
