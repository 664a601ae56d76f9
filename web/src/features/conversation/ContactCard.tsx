import { type FormEvent, useState } from 'react';
import type { Conversation } from '../../api/client';
import { t } from '../../i18n/t';
import { usePresence } from '../../realtime/RealtimeProvider';
import { Avatar } from '../../ui/Avatar';
import { Badge } from '../../ui/Badge';
import { Button } from '../../ui/Button';
import { Dialog } from '../../ui/Dialog';
import { Switch } from '../../ui/Switch';
import { Textarea } from '../../ui/Input';
import { toast } from '../../ui/Toast';
import { can, useAgent } from '../auth/session';
import { ago, contactName } from '../inbox/format';
import { useAddNote, useBlockContact, useContactNotes, useContactRemoteImages, usePageVisits } from './queries';

/** The contact: who, whether on the site now, recent pages, notes, and blocking. */
export function ContactCard({ conversation: c }: { conversation: Conversation }) {
  const agent = useAgent();
  const contact = c.contact;
  const name = contactName(contact);
  const presence = usePresence(contact.id);
  const notes = useContactNotes(contact.id, can(agent, 'contact_notes:read'));
  const visits = usePageVisits(contact.id, can(agent, 'contacts:read'));
  const addNote = useAddNote(contact.id);
  const block = useBlockContact(contact.id, c.uuid);
  const remoteImages = useContactRemoteImages(contact.id);
  const [note, setNote] = useState('');
  const [confirm, setConfirm] = useState(false);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!note.trim()) return;
    addNote.mutate(note, { onSuccess: () => setNote(''), onError: (error) => toast(error.message, 'error') });
  };

  return (
    <section className="details__section contact" aria-labelledby="details-contact">
      <h3 id="details-contact" className="details__label">
        {t('sidebar.contact')}
      </h3>
      <div className="contact__head">
        <Avatar name={name} src={contact.avatar_url} size="lg" />
        <div>
          <p className="contact__name">{name}</p>
          {contact.email ? <p className="contact__line">{contact.email}</p> : null}
          {contact.phone_number ? <p className="contact__line">{contact.phone_number}</p> : null}
          <p className="contact__line">
            {!contact.enabled ? <Badge tone="danger">{t('sidebar.contact.blocked')}</Badge> : null}{' '}
            {presence === 'online' ? <Badge tone="success">{t('conversation.contactOnline')}</Badge> : null}
          </p>
        </div>
      </div>
      {can(agent, 'contacts:write') ? (
        <Switch
          checked={contact.load_remote_images}
          disabled={remoteImages.isPending}
          onCheckedChange={(load) => remoteImages.mutate(load, { onError: (error) => toast(error.message, 'error') })}
          label={t('sidebar.contact.remoteImages')}
          hint={t('sidebar.contact.remoteImagesHint')}
        />
      ) : null}
      {can(agent, 'contacts:read') ? (
        <div className="contact__block">
          <h4 className="details__label">{t('sidebar.contact.visits')}</h4>
          {(visits.data ?? []).length === 0 ? (
            <p className="details__note">{t('sidebar.contact.noVisits')}</p>
          ) : (
            <ul className="contact__visits">
              {(visits.data ?? []).slice(0, 5).map((visit) => (
                <li key={`${visit.url}-${visit.visited_at}`}>
                  <a href={visit.url} target="_blank" rel="noreferrer noopener">
                    {visit.title || visit.url}
                  </a>{' '}
                  <span className="details__note">{ago(visit.visited_at)}</span>
                </li>
              ))}
            </ul>
          )}
        </div>
      ) : null}
      {can(agent, 'contact_notes:read') ? (
        <div className="contact__block">
          <h4 className="details__label">{t('sidebar.contact.notes')}</h4>
          <ul className="contact__notes">
            {(notes.data ?? []).map((n) => (
              <li key={n.id}>
                {/* biome-ignore lint/security/noDangerouslySetInnerHtml: notes are sanitised HTML from the server */}
                <div className="contact__note" dangerouslySetInnerHTML={{ __html: n.note }} />
                <span className="details__note">
                  {n.first_name} · {ago(n.created_at)}
                </span>
              </li>
            ))}
          </ul>
          {can(agent, 'contact_notes:write') ? (
            <form onSubmit={submit} className="contact__form">
              <Textarea
                aria-label={t('sidebar.contact.addNote')}
                placeholder={t('sidebar.contact.notePlaceholder')}
                value={note}
                onChange={(event) => setNote(event.target.value)}
                rows={2}
              />
              <Button size="sm" type="submit" loading={addNote.isPending} disabled={!note.trim()}>
                {t('sidebar.contact.addNote')}
              </Button>
            </form>
          ) : null}
        </div>
      ) : null}
      {can(agent, 'contacts:block') ? (
        <>
          <Button
            size="sm"
            variant={contact.enabled ? 'secondary' : 'ghost'}
            onClick={() => (contact.enabled ? setConfirm(true) : block.mutate(true))}
          >
            {contact.enabled ? t('sidebar.contact.block') : t('sidebar.contact.unblock')}
          </Button>
          <Dialog
            open={confirm}
            onOpenChange={setConfirm}
            size="sm"
            title={t('sidebar.contact.block')}
            footer={
              <>
                <Button onClick={() => setConfirm(false)}>{t('common.cancel')}</Button>
                <Button
                  variant="danger"
                  loading={block.isPending}
                  onClick={() =>
                    block.mutate(false, { onSuccess: () => setConfirm(false), onError: (error) => toast(error.message, 'error') })
                  }
                >
                  {t('sidebar.contact.block')}
                </Button>
              </>
            }
          >
            <p>{t('sidebar.contact.blockConfirm', { name })}</p>
          </Dialog>
        </>
      ) : null}
    </section>
  );
}
