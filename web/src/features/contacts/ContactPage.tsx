// One contact: who they are (edit), blocking, their conversations and the team's notes on them.
import { ArrowLeft } from 'lucide-react';
import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { t } from '../../i18n/t';
import { conversationTitle } from '../conversation/title';
import { Avatar } from '../../ui/Avatar';
import { Badge } from '../../ui/Badge';
import { Button } from '../../ui/Button';
import { ConfirmDialog } from '../../ui/ConfirmDialog';
import { EmptyState } from '../../ui/EmptyState';
import { Card, Page } from '../../ui/Page';
import { QueryState } from '../../ui/QueryState';
import { Loading } from '../../ui/Spinner';
import { toast } from '../../ui/Toast';
import { can, useAgent } from '../auth/session';
import { ago, contactName, dateTime } from '../inbox/format';
import { ContactDialog } from './ContactDialog';
import { ContactNotes } from './ContactNotes';
import { type Contact, useBlockContact, useContact, useContactConversations } from './queries';
import './contacts.css';

function Details({ contact }: { contact: Contact }) {
  const attributes = Object.entries(contact.custom_attributes);
  const phone = contact.phone_number
    ? `${contact.phone_number_country_code ? `(${contact.phone_number_country_code}) ` : ''}${contact.phone_number}`
    : null;
  const rows: Array<[string, string | null]> = [
    [t('contacts.field.email'), contact.email],
    [t('contacts.field.phone'), phone],
    [t('contacts.field.type'), contact.type === 'visitor' ? t('contacts.visitor') : t('contacts.contact')],
    [t('contacts.field.created'), dateTime(contact.created_at)],
    [t('contacts.field.lastActive'), contact.last_active_at ? dateTime(contact.last_active_at) : null],
    ...attributes.map(([key, value]): [string, string] => [key, typeof value === 'string' ? value : JSON.stringify(value)]),
  ];
  return (
    <dl className="details">
      {rows.map(([label, value]) => (
        <div key={label} className="details__row">
          <dt>{label}</dt>
          <dd>{value ?? <span className="cell-muted">—</span>}</dd>
        </div>
      ))}
    </dl>
  );
}

function Conversations({ contactId }: { contactId: number }) {
  const conversations = useContactConversations(contactId);
  return (
    <QueryState query={conversations} isEmpty={(rows) => rows.length === 0} empty={<EmptyState title={t('contacts.noConversations')} />}>
      {(rows) => (
        <ul className="contact-conversations">
          {rows.map((row) => (
            <li key={row.uuid}>
              <Link to={`/conversations/${row.uuid}`} className="contact-conversation">
                <span className="contact-conversation__top">
                  <span className="contact-conversation__subject">{conversationTitle(row)}</span>
                  <span className="cell-muted">{ago(row.last_message_at ?? row.created_at)}</span>
                </span>
                <span className="contact-conversation__meta">
                  <span className="cell-muted">#{row.reference_number}</span>
                  <Badge>{row.status}</Badge>
                  <span className="cell-muted">{row.inbox_name}</span>
                </span>
                {row.last_message ? <span className="contact-conversation__preview">{row.last_message}</span> : null}
              </Link>
            </li>
          ))}
        </ul>
      )}
    </QueryState>
  );
}

export function ContactPage() {
  const id = Number(useParams().id);
  const contact = useContact(id);
  const agent = useAgent();
  const block = useBlockContact();
  const [editing, setEditing] = useState(false);
  const [confirmBlock, setConfirmBlock] = useState(false);
  const back = can(agent, 'contacts:read_all') ? (
    <Link to="/contacts">
      <ArrowLeft size={16} aria-hidden /> {t('contacts.title')}
    </Link>
  ) : undefined;

  if (contact.isPending) return <Loading />;
  if (contact.isError)
    return (
      <Page title={t('contacts.notFound')} back={back}>
        <EmptyState title={t('contacts.notFound')} hint={contact.error.message} />
      </Page>
    );
  const record = contact.data;
  const name = contactName(record);
  const blocked = !record.enabled;

  const unblock = () =>
    block.mutate(
      { id, enabled: true },
      { onSuccess: () => toast(t('contacts.unblocked')), onError: (error) => toast(error.message, 'error') },
    );

  return (
    <Page
      title={name}
      back={back}
      description={
        <span className="contact-heading">
          <Avatar name={name} src={record.avatar_url} size="lg" />
          {record.type === 'visitor' ? <Badge>{t('contacts.visitor')}</Badge> : <Badge tone="accent">{t('contacts.contact')}</Badge>}
          {blocked ? <Badge tone="danger">{t('contacts.blocked')}</Badge> : null}
        </span>
      }
      actions={
        <>
          {can(agent, 'contacts:write') ? <Button onClick={() => setEditing(true)}>{t('contacts.edit')}</Button> : null}
          {can(agent, 'contacts:block') ? (
            blocked ? (
              <Button onClick={unblock} loading={block.isPending}>
                {t('contacts.unblock')}
              </Button>
            ) : (
              <Button variant="danger" onClick={() => setConfirmBlock(true)}>
                {t('contacts.block')}
              </Button>
            )
          ) : null}
        </>
      }
    >
      <div className="contact-layout">
        <div className="contact-layout__main">
          <Card title={t('contacts.details')}>
            <Details contact={record} />
          </Card>
          <Card title={t('contacts.conversations')}>
            <Conversations contactId={id} />
          </Card>
        </div>
        <div className="contact-layout__side">
          <ContactNotes contactId={id} />
        </div>
      </div>
      <ContactDialog open={editing} onOpenChange={setEditing} contact={record} />
      <ConfirmDialog
        open={confirmBlock}
        onOpenChange={setConfirmBlock}
        title={t('contacts.block')}
        message={t('contacts.blockConfirm', { name })}
        confirmLabel={t('contacts.block')}
        onConfirm={async () => {
          await block.mutateAsync({ id, enabled: false });
          toast(t('contacts.blockedDone'));
        }}
      />
    </Page>
  );
}
