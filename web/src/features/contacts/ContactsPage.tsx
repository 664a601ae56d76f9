// Every contact, searched by name, email or phone (as one types), sorted and paged; the query,
// sort and page live in the URL so that a link or the back button finds the same list.
import { ArrowDown, ArrowUp } from 'lucide-react';
import { useEffect, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { t } from '../../i18n/t';
import { Avatar } from '../../ui/Avatar';
import { Badge } from '../../ui/Badge';
import { Button } from '../../ui/Button';
import { EmptyState } from '../../ui/EmptyState';
import { Input } from '../../ui/Input';
import { Card, Page, Toolbar } from '../../ui/Page';
import { Pager } from '../../ui/Pager';
import { QueryState } from '../../ui/QueryState';
import { Select } from '../../ui/Select';
import { can, useAgent } from '../auth/session';
import { contactName, dateTime } from '../inbox/format';
import { ContactDialog } from './ContactDialog';
import { CONTACT_ORDER, type ContactListParams, useContactList } from './queries';
import { useDebounced } from './useDebounced';
import './contacts.css';

function paramsFrom(search: URLSearchParams): ContactListParams {
  const orderBy = search.get('order_by');
  const page = Number(search.get('page'));
  return {
    q: search.get('q') ?? '',
    page: Number.isInteger(page) && page > 0 ? page : 1,
    order_by: CONTACT_ORDER.find((value) => value === orderBy) ?? 'created_at',
    order: search.get('order') === 'asc' ? 'asc' : 'desc',
  };
}

export function ContactsPage() {
  const [search, setSearch] = useSearchParams();
  const params = paramsFrom(search);
  const [text, setText] = useState(params.q);
  const typed = useDebounced(text.trim());
  const list = useContactList(params);
  const agent = useAgent();
  const navigate = useNavigate();
  const [creating, setCreating] = useState(false);

  const set = (changes: Record<string, string | null>) => {
    const next = new URLSearchParams(search);
    for (const [name, value] of Object.entries(changes)) {
      if (value === null || value === '') next.delete(name);
      else next.set(name, value);
    }
    if (!('page' in changes)) next.delete('page');
    setSearch(next, { replace: true });
  };
  // biome-ignore lint/correctness/useExhaustiveDependencies: only a settled change of the box moves the URL
  useEffect(() => {
    if (typed !== params.q) set({ q: typed });
  }, [typed]);

  return (
    <Page
      title={t('contacts.title')}
      description={list.data ? t('contacts.total', { n: list.data.total }) : undefined}
      actions={
        can(agent, 'contacts:write') ? (
          <Button variant="primary" onClick={() => setCreating(true)}>
            {t('contacts.new')}
          </Button>
        ) : null
      }
    >
      <Toolbar label={t('contacts.filters')}>
        <Input
          type="search"
          value={text}
          onChange={(event) => setText(event.target.value)}
          placeholder={t('contacts.searchPlaceholder')}
          aria-label={t('contacts.search')}
          maxLength={200}
        />
        <Select
          size="sm"
          aria-label={t('contacts.sort')}
          value={params.order_by}
          options={CONTACT_ORDER.map((value) => ({ value, label: t(`contacts.sort.${value}`) }))}
          onValueChange={(value) => set({ order_by: value })}
        />
        <Button
          size="sm"
          variant="ghost"
          icon
          aria-label={t('contacts.order', { order: t(`contacts.order.${params.order}`) })}
          title={t(`contacts.order.${params.order}`)}
          onClick={() => set({ order: params.order === 'desc' ? 'asc' : 'desc' })}
        >
          {params.order === 'desc' ? <ArrowDown size={16} aria-hidden /> : <ArrowUp size={16} aria-hidden />}
        </Button>
      </Toolbar>
      <Card>
        <QueryState
          query={list}
          isEmpty={(data) => data.results.length === 0}
          empty={
            <EmptyState title={params.q ? t('contacts.noMatch', { q: params.q }) : t('contacts.empty')} hint={t('contacts.emptyHint')} />
          }
        >
          {(data) => (
            <>
              <table className="ui-table contacts-table">
                <caption className="visually-hidden">{t('contacts.title')}</caption>
                <thead>
                  <tr>
                    <th scope="col">{t('contacts.col.name')}</th>
                    <th scope="col" className="col-optional">
                      {t('contacts.col.email')}
                    </th>
                    <th scope="col" className="col-optional">
                      {t('contacts.col.phone')}
                    </th>
                    <th scope="col" className="col-optional">
                      {t('contacts.col.created')}
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {data.results.map((contact) => (
                    <tr key={contact.id}>
                      <td>
                        <Link to={`/contacts/${contact.id}`} className="contact-link">
                          <Avatar name={contactName(contact)} src={contact.avatar_url} size="sm" />
                          <span className="contact-link__text">
                            <span className="contact-link__name">{contactName(contact)}</span>
                            <span className="contact-link__sub">{contact.email ?? ''}</span>
                          </span>
                        </Link>
                        <span className="contact-badges">
                          {contact.type === 'visitor' ? <Badge>{t('contacts.visitor')}</Badge> : null}
                          {contact.enabled ? null : <Badge tone="danger">{t('contacts.blocked')}</Badge>}
                        </span>
                      </td>
                      <td className="col-optional">{contact.email ?? <span className="cell-muted">—</span>}</td>
                      <td className="col-optional">
                        {contact.phone_number ? (
                          `${contact.phone_number_country_code ? `(${contact.phone_number_country_code}) ` : ''}${contact.phone_number}`
                        ) : (
                          <span className="cell-muted">—</span>
                        )}
                      </td>
                      <td className="col-optional cell-muted">{dateTime(contact.created_at)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
              <Pager page={data.page} pages={data.total_pages} onPage={(page) => set({ page: String(page) })} />
            </>
          )}
        </QueryState>
      </Card>
      <ContactDialog open={creating} onOpenChange={setCreating} contact={null} onSaved={(contact) => navigate(`/contacts/${contact.id}`)} />
    </Page>
  );
}
