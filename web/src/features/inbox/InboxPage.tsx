// A conversation list (mine, unassigned, all, a team's, an inbox's) beside the open conversation.
// Filters, sort and page live in the URL; j/k move, Enter opens, e resolves, a assigns to me, x selects.
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { Outlet, useMatch, useNavigate, useParams, useSearchParams } from 'react-router';
import { keys } from '../../api/keys';
import { useInboxes, useTeams } from '../../api/reference';
import { t } from '../../i18n/t';
import { Button } from '../../ui/Button';
import { EmptyState } from '../../ui/EmptyState';
import { Loading } from '../../ui/Spinner';
import { toast } from '../../ui/Toast';
import { useAgent } from '../auth/session';
import type { Change } from '../conversation/changes';
import { BulkBar } from './BulkBar';
import { changeMany, describeOutcome } from './bulk';
import { ConversationRow } from './ConversationRow';
import { useConversationList } from './queries';
import { FilterBar } from './FilterBar';
import { useListShortcuts } from './shortcuts';
import { filtersFrom, type ListView, viewPath } from './views';

function useView(kind: ListView['kind']): ListView {
  const { id } = useParams();
  return kind === 'team' || kind === 'inbox' ? { kind, id: Number(id) } : { kind };
}

function useTitle(view: ListView): string {
  const teams = useTeams();
  const inboxes = useInboxes();
  switch (view.kind) {
    case 'team':
      return t('inbox.title.team', { name: teams.data?.find((team) => team.id === view.id)?.name ?? '…' });
    case 'inbox':
      return t('inbox.title.inbox', { name: inboxes.data?.find((inbox) => inbox.id === view.id)?.name ?? '…' });
    default:
      return t(`inbox.title.${view.kind}`);
  }
}

export function InboxPage({ kind }: { kind: ListView['kind'] }) {
  const view = useView(kind);
  const [params, setParams] = useSearchParams();
  const filters = filtersFrom(params);
  const list = useConversationList(view, filters);
  const agent = useAgent();
  const title = useTitle(view);
  const navigate = useNavigate();
  const client = useQueryClient();
  const open = useMatch(`${viewPath(view)}/c/:uuid`);
  const openUuid = open?.params.uuid;
  const [focus, setFocus] = useState(0);
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const [busy, setBusy] = useState(false);
  const listRef = useRef<HTMLUListElement>(null);
  const rows = useMemo(() => list.data?.results ?? [], [list.data]);

  // A new view or page starts with nothing selected.
  const listKey = JSON.stringify([view, filters]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: reset when the list identity changes
  useEffect(() => {
    setSelected(new Set());
    setFocus(0);
  }, [listKey]);

  // A filter of several values is its parameter repeated (`status=Open&status=Snoozed`).
  const setParam = (name: string, value: string | readonly string[] | null) => {
    const next = new URLSearchParams(params);
    next.delete(name);
    for (const one of value === null ? [] : typeof value === 'string' ? [value] : value) next.append(name, one);
    if (name !== 'page') next.delete('page');
    setParams(next);
  };
  const href = (uuid: string) => `${viewPath(view)}/c/${uuid}${params.size ? `?${params}` : ''}`;

  // Every request answered, then one refresh of the lists and open conversations.
  const applyToMany = useCallback(
    async (uuids: readonly string[], change: Change) => {
      const outcome = await changeMany(uuids, change);
      await client.invalidateQueries({ queryKey: keys.conversations.all });
      toast(describeOutcome(outcome), outcome.failed ? 'error' : undefined);
    },
    [client],
  );

  useListShortcuts({
    count: rows.length,
    focus,
    setFocus: (index) => {
      setFocus(index);
      listRef.current?.querySelectorAll<HTMLElement>('[data-conversation-link]')[index]?.focus();
    },
    open: (index) => {
      const row = rows[index];
      if (row) navigate(href(row.uuid));
    },
    resolve: (index) => {
      const row = rows[index];
      if (row) void applyToMany([row.uuid], { kind: 'status', status: 'Resolved' });
    },
    assignMe: (index) => {
      const row = rows[index];
      if (row) void applyToMany([row.uuid], { kind: 'assignee', id: agent.id });
    },
    toggleSelect: (index) => {
      const row = rows[index];
      if (!row) return;
      const next = new Set(selected);
      if (next.has(row.uuid)) next.delete(row.uuid);
      else next.add(row.uuid);
      setSelected(next);
    },
  });

  const selectedTags = [...new Set(rows.filter((row) => selected.has(row.uuid)).flatMap((row) => row.tags))].sort();
  const page = list.data?.page ?? filters.page;
  const pages = list.data?.total_pages ?? 1;
  const allSelected = rows.length > 0 && rows.every((row) => selected.has(row.uuid));

  return (
    <div className={`inbox${openUuid ? ' inbox--open' : ''}`}>
      <section className="inbox__list" aria-labelledby="inbox-title">
        <div className="inbox__header">
          <h1 id="inbox-title">
            {title}
            {list.data ? <span className="inbox__total"> · {list.data.total}</span> : null}
          </h1>
          <div className="inbox__filters">
            <input
              type="checkbox"
              className="ui-checkbox"
              checked={allSelected}
              onChange={(event) => setSelected(event.target.checked ? new Set(rows.map((row) => row.uuid)) : new Set())}
              aria-label={t('inbox.selectAll')}
            />
            {view.kind === 'mentioned' ? null : <FilterBar view={view} filters={filters} setParam={setParam} />}
          </div>
          {selected.size > 0 ? (
            <div className="inbox__selectbar">
              <BulkBar
                count={selected.size}
                selectedTags={selectedTags}
                busy={busy}
                onChange={async (change) => {
                  setBusy(true);
                  try {
                    await applyToMany([...selected], change);
                  } finally {
                    setBusy(false);
                  }
                  setSelected(new Set());
                }}
                onClear={() => setSelected(new Set())}
              />
            </div>
          ) : null}
        </div>
        {list.isPending ? (
          <Loading />
        ) : list.isError ? (
          <EmptyState
            title={t('app.error')}
            hint={list.error.message}
            action={<Button onClick={() => list.refetch()}>{t('app.retry')}</Button>}
          />
        ) : rows.length === 0 ? (
          <EmptyState title={t('inbox.empty')} hint={t('inbox.emptyHint')} />
        ) : (
          <ul className="inbox__rows" ref={listRef} aria-label={t('inbox.list')}>
            {rows.map((row, index) => (
              <ConversationRow
                key={row.uuid}
                conversation={row}
                href={href(row.uuid)}
                active={row.uuid === openUuid}
                focused={index === focus}
                selected={selected.has(row.uuid)}
                onFocus={() => setFocus(index)}
                onSelect={(on) => {
                  const next = new Set(selected);
                  if (on) next.add(row.uuid);
                  else next.delete(row.uuid);
                  setSelected(next);
                }}
              />
            ))}
          </ul>
        )}
        {pages > 1 ? (
          <nav className="pager" aria-label={t('common.page', { page, pages })}>
            <Button size="sm" disabled={page <= 1} onClick={() => setParam('page', String(page - 1))}>
              {t('common.previous')}
            </Button>
            <span>{t('common.page', { page, pages })}</span>
            <Button size="sm" disabled={page >= pages} onClick={() => setParam('page', String(page + 1))}>
              {t('common.next')}
            </Button>
          </nav>
        ) : null}
      </section>
      <section className="inbox__detail">
        <Outlet />
      </section>
    </div>
  );
}

export function SelectHint() {
  return <EmptyState title={t('inbox.selectHint')} />;
}
