// One search over conversations (reference or subject), messages (full text) and contacts, the
// results grouped, each linking to its conversation or contact. The query lives in the URL.
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { type FormEvent, Fragment, type ReactNode, useEffect, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { api, unwrap } from '../../api/client';
import { keys } from '../../api/keys';
import { t } from '../../i18n/t';
import { Avatar } from '../../ui/Avatar';
import { Badge } from '../../ui/Badge';
import { Button } from '../../ui/Button';
import { EmptyState } from '../../ui/EmptyState';
import { Input } from '../../ui/Input';
import { Card, Page } from '../../ui/Page';
import { QueryState } from '../../ui/QueryState';
import { can, useAgent } from '../auth/session';
import { ago, contactName } from '../inbox/format';
import './search.css';

const FIRST = 10;
const MORE = 50;

/** The words to mark in a snippet: the query's words and phrases, without operators. */
export function searchTerms(q: string): string[] {
  const terms: string[] = [];
  for (const match of q.matchAll(/"([^"]+)"|(\S+)/g)) {
    const phrase = match[1];
    const word = match[2];
    if (phrase) terms.push(phrase);
    else if (word && !word.startsWith('-') && word.toLowerCase() !== 'or') terms.push(word.replace(/^#/, ''));
  }
  return terms.filter((term) => term.length > 0);
}

/** The text with every occurrence of a term in <mark>; plain text only, never HTML. */
function Highlighted({ text, terms }: { text: string; terms: readonly string[] }): ReactNode {
  if (terms.length === 0) return text;
  const escaped = terms.map((term) => term.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  const parts = text.split(new RegExp(`(${escaped.join('|')})`, 'gi'));
  const lower = new Set(terms.map((term) => term.toLowerCase()));
  return parts.map((part, index) =>
    // biome-ignore lint/suspicious/noArrayIndexKey: the parts of one string, in order
    lower.has(part.toLowerCase()) ? <mark key={index}>{part}</mark> : <Fragment key={index}>{part}</Fragment>,
  );
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
  const results = useQuery({
    queryKey: [...keys.search(q), limit],
    queryFn: () => unwrap(api.GET('/api/v1/search', { params: { query: { q, limit } } })),
    enabled: q.length > 0,
    placeholderData: keepPreviousData,
  });
  const terms = searchTerms(q);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const next = text.trim();
    if (next) setParams({ q: next });
  };
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
                            <Highlighted text={hit.subject || t('inbox.noSubject')} terms={terms} />
                          </span>
                          <span className="hit__meta">
                            <span>#{hit.reference_number}</span>
                            <Badge>{hit.status}</Badge>
                            <span>{contactName(hit.contact)}</span>
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
                    {data.messages.map((hit) => (
                      <li key={hit.uuid}>
                        <Link className="hit" to={`/conversations/${hit.conversation_uuid}`}>
                          <span className="hit__snippet">
                            <Highlighted text={hit.snippet} terms={terms} />
                          </span>
                          <span className="hit__meta">
                            <span>{t('search.inConversation', { ref: hit.reference_number })}</span>
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
                              <Highlighted text={contactName(hit)} terms={terms} />
                            </span>
                            <span className="hit__meta">
                              {hit.email ? <Highlighted text={hit.email} terms={terms} /> : null}
                              {hit.phone_number ? <span>{hit.phone_number}</span> : null}
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
