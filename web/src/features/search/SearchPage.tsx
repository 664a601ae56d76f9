// One search over conversations (reference, subject, tags, contact), messages (full text) and
// contacts, the results grouped (messages under their conversation), each linking to its
// conversation or contact, the server's highlights marked. The query and filters live in the URL.
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { type FormEvent, Fragment, type ReactNode, useEffect, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { api, unwrap } from '../../api/client';
import { keys } from '../../api/keys';
import { useInboxes, useStatuses, useTeams } from '../../api/reference';
import { t } from '../../i18n/t';
import { Avatar } from '../../ui/Avatar';
import { Badge } from '../../ui/Badge';
import { Button } from '../../ui/Button';
import { EmptyState } from '../../ui/EmptyState';
import { Input } from '../../ui/Input';
import { Card, Page } from '../../ui/Page';
import { QueryState } from '../../ui/QueryState';
import { Select } from '../../ui/Select';
import { can, useAgent } from '../auth/session';
import { conversationTitle } from '../conversation/title';
import { ago, contactName } from '../inbox/format';
import './search.css';

const FIRST = 10;
const MORE = 50;

/** The text with the server's highlight ranges in <mark>; plain text only, never HTML. */
export function Marked({ text, ranges }: { text: string; ranges: ReadonlyArray<ReadonlyArray<number>> }): ReactNode {
  const parts: ReactNode[] = [];
  let at = 0;
  for (const [start = 0, end = 0] of ranges) {
    if (start < at || end <= start || end > text.length) continue;
    if (start > at) parts.push(<Fragment key={`t${at}`}>{text.slice(at, start)}</Fragment>);
    parts.push(<mark key={`m${start}`}>{text.slice(start, end)}</mark>);
    at = end;
  }
  if (at < text.length) parts.push(<Fragment key={`t${at}`}>{text.slice(at)}</Fragment>);
  return parts;
}

/** The filters the search takes, as they sit in the URL (`any` for none). */
const FILTERS = ['status', 'inbox_id', 'team_id', 'assignee_id', 'from', 'to'] as const;
type Filter = (typeof FILTERS)[number];

function filterQuery(params: URLSearchParams) {
  const value = (name: Filter) => {
    const raw = params.get(name);
    return raw && raw !== 'any' ? raw : undefined;
  };
  const id = (name: Filter) => (value(name) && /^[0-9]+$/.test(value(name) ?? '') ? [Number(value(name))] : undefined);
  const status = value('status');
  const assignee = value('assignee_id');
  return {
    ...(status ? { status: [status] } : {}),
    ...(id('inbox_id') ? { inbox_id: id('inbox_id') } : {}),
    ...(id('team_id') ? { team_id: id('team_id') } : {}),
    ...(assignee ? { assignee_id: [assignee] } : {}),
    ...(value('from') ? { from: value('from') } : {}),
    ...(value('to') ? { to: value('to') } : {}),
  };
}

/** Message hits grouped under their conversation, in the order of each conversation's newest hit. */
function byConversation<T extends { conversation_uuid: string }>(hits: readonly T[]): T[][] {
  const groups = new Map<string, T[]>();
  for (const hit of hits) {
    const group = groups.get(hit.conversation_uuid);
    if (group) group.push(hit);
    else groups.set(hit.conversation_uuid, [hit]);
  }
  return [...groups.values()];
}

export function SearchPage() {
  const [params, setParams] = useSearchParams();
  const q = (params.get('q') ?? '').trim();
  const [text, setText] = useState(q);
  const [limit, setLimit] = useState(FIRST);
  const agent = useAgent();
  useEffect(() => {
    setText(q);
    setLimit(FIRST);
  }, [q]);
  const filters = filterQuery(params);
  const results = useQuery({
    queryKey: [...keys.search(q), limit, filters],
    queryFn: () => unwrap(api.GET('/api/v1/search', { params: { query: { q, limit, ...filters } } })),
    enabled: q.length > 0,
    placeholderData: keepPreviousData,
  });
  const statuses = useStatuses();
  const inboxes = useInboxes();
  const teams = useTeams();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const next = text.trim();
    if (next) {
      const updated = new URLSearchParams(params);
      updated.set('q', next);
      setParams(updated);
    }
  };
  const setFilter = (name: Filter, value: string) => {
    const updated = new URLSearchParams(params);
    if (value && value !== 'any') updated.set(name, value);
    else updated.delete(name);
    setParams(updated);
  };
  const any = { value: 'any', label: t('search.any') };
  const contactLinks = can(agent, 'contacts:read');

  return (
    <Page title={t('search.title')}>
      <form className="search-form" onSubmit={submit}>
        <Input
          type="search"
          value={text}
          onChange={(event) => setText(event.target.value)}
          placeholder={t('search.placeholder')}
          aria-label={t('search.label')}
          maxLength={200}
          autoFocus
        />
        <Button type="submit" variant="primary">
          {t('search.submit')}
        </Button>
      </form>
      <div className="search-filters">
        <Select
          size="sm"
          aria-label={t('search.status')}
          value={params.get('status') ?? 'any'}
          onValueChange={(value) => setFilter('status', value)}
          options={[{ ...any, label: t('search.anyStatus') }, ...(statuses.data ?? []).map((s) => ({ value: s.name, label: s.name }))]}
        />
        <Select
          size="sm"
          aria-label={t('search.inbox')}
          value={params.get('inbox_id') ?? 'any'}
          onValueChange={(value) => setFilter('inbox_id', value)}
          options={[{ ...any, label: t('search.anyInbox') }, ...(inboxes.data ?? []).map((i) => ({ value: String(i.id), label: i.name }))]}
        />
        <Select
          size="sm"
          aria-label={t('search.team')}
          value={params.get('team_id') ?? 'any'}
          onValueChange={(value) => setFilter('team_id', value)}
          options={[{ ...any, label: t('search.anyTeam') }, ...(teams.data ?? []).map((x) => ({ value: String(x.id), label: x.name }))]}
        />
        <Select
          size="sm"
          aria-label={t('search.assignee')}
          value={params.get('assignee_id') ?? 'any'}
          onValueChange={(value) => setFilter('assignee_id', value)}
          options={[
            { ...any, label: t('search.anyAssignee') },
            ...(agent ? [{ value: String(agent.id), label: t('search.assignedToMe') }] : []),
            { value: 'unassigned', label: t('search.unassigned') },
          ]}
        />
        <span className="search-filters__date">
          <label htmlFor="search-from">{t('search.from')}</label>
          <Input
            id="search-from"
            type="date"
            value={params.get('from') ?? ''}
            onChange={(event) => setFilter('from', event.target.value)}
          />
        </span>
        <span className="search-filters__date">
          <label htmlFor="search-to">{t('search.to')}</label>
          <Input id="search-to" type="date" value={params.get('to') ?? ''} onChange={(event) => setFilter('to', event.target.value)} />
        </span>
      </div>
      {q.length === 0 ? (
        <EmptyState title={t('search.hint')} />
      ) : (
        <QueryState
          query={results}
          isEmpty={(data) => data.conversations.length + data.messages.length + data.contacts.length === 0}
          empty={<EmptyState title={t('search.nothing', { q })} hint={t('search.nothingHint')} />}
        >
          {(data) => (
            <div className="search-results">
              <Card title={`${t('search.conversations')} · ${data.conversations.length}`}>
                {data.conversations.length === 0 ? (
                  <p className="cell-muted">{t('search.noneInSection')}</p>
                ) : (
                  <ul className="hits">
                    {data.conversations.map((hit) => (
                      <li key={hit.uuid}>
                        <Link className="hit" to={`/conversations/${hit.uuid}`}>
                          <span className="hit__title">
                            {hit.subject ? <Marked text={hit.subject} ranges={hit.subject_highlights} /> : conversationTitle(hit)}
                          </span>
                          <span className="hit__meta">
                            <span>#{hit.reference_number}</span>
                            <Badge>{hit.status}</Badge>
                            <span>
                              {hit.contact.name_highlights.length > 0 ? (
                                <Marked text={`${hit.contact.first_name} ${hit.contact.last_name}`} ranges={hit.contact.name_highlights} />
                              ) : (
                                contactName(hit.contact)
                              )}
                            </span>
                            {hit.tags
                              .filter((tag) => tag.highlights.length > 0)
                              .map((tag) => (
                                <Badge key={tag.name}>
                                  <Marked text={tag.name} ranges={tag.highlights} />
                                </Badge>
                              ))}
                            <span>{ago(hit.last_message_at ?? hit.created_at)}</span>
                          </span>
                        </Link>
                      </li>
                    ))}
                  </ul>
                )}
              </Card>
              <Card title={`${t('search.messages')} · ${data.messages.length}`}>
                {data.messages.length === 0 ? (
                  <p className="cell-muted">{t('search.noneInSection')}</p>
                ) : (
                  <ul className="hits">
                    {byConversation(data.messages).map((group) => {
                      const first = group[0];
                      if (!first) return null;
                      return (
                        <li key={first.conversation_uuid} className="hit-group">
                          <Link className="hit__title" to={`/conversations/${first.conversation_uuid}`}>
                            {conversationTitle({ subject: first.conversation_subject, first_message: first.conversation_first_message })}
                          </Link>
                          <span className="hit__meta">
                            <span>#{first.reference_number}</span>
                            <Badge>{first.conversation_status}</Badge>
                          </span>
                          <ul className="hits hits--nested">
                            {group.map((hit) => (
                              <li key={hit.uuid}>
                                <Link className="hit" to={`/conversations/${hit.conversation_uuid}`}>
                                  <span className="hit__snippet">
                                    <Marked text={hit.snippet} ranges={hit.highlights} />
                                  </span>
                                  <span className="hit__meta">
                                    {hit.private ? (
                                      <Badge tone="warning">{t('search.private')}</Badge>
                                    ) : (
                                      <Badge>{hit.type === 'incoming' ? t('search.incoming') : t('search.outgoing')}</Badge>
                                    )}
                                    <span>{ago(hit.created_at)}</span>
                                  </span>
                                </Link>
                              </li>
                            ))}
                          </ul>
                        </li>
                      );
                    })}
                  </ul>
                )}
              </Card>
              <Card title={`${t('search.contacts')} · ${data.contacts.length}`}>
                {data.contacts.length === 0 ? (
                  <p className="cell-muted">{t('search.noneInSection')}</p>
                ) : (
                  <ul className="hits">
                    {data.contacts.map((hit) => {
                      const body = (
                        <>
                          <Avatar name={contactName(hit)} src={hit.avatar_url} size="sm" />
                          <span className="hit__contact">
                            <span className="hit__title">
                              {hit.name_highlights.length > 0 ? (
                                <Marked text={`${hit.first_name} ${hit.last_name}`} ranges={hit.name_highlights} />
                              ) : (
                                contactName(hit)
                              )}
                            </span>
                            <span className="hit__meta">
                              {hit.email ? <Marked text={hit.email} ranges={hit.email_highlights} /> : null}
                              {hit.phone_number ? (
                                <span>
                                  <Marked text={hit.phone_number} ranges={hit.phone_highlights} />
                                </span>
                              ) : null}
                              {hit.type === 'visitor' ? <Badge>{t('contacts.visitor')}</Badge> : null}
                            </span>
                          </span>
                        </>
                      );
                      return (
                        <li key={hit.id}>
                          {contactLinks ? (
                            <Link className="hit hit--row" to={`/contacts/${hit.id}`}>
                              {body}
                            </Link>
                          ) : (
                            <div className="hit hit--row">{body}</div>
                          )}
                        </li>
                      );
                    })}
                  </ul>
                )}
              </Card>
              {limit < MORE && (data.conversations.length >= limit || data.messages.length >= limit || data.contacts.length >= limit) ? (
                <div>
                  <Button onClick={() => setLimit(MORE)} loading={results.isFetching}>
                    {t('search.more')}
                  </Button>
                </div>
              ) : null}
            </div>
          )}
        </QueryState>
      )}
    </Page>
  );
}
