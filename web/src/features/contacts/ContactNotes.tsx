// The team's notes on a contact, newest first: add one (plain text, kept as paragraphs), delete
// one's own (or anyone's with contact_notes:delete).
import { type FormEvent, useState } from 'react';
import { t } from '../../i18n/t';
import { Avatar } from '../../ui/Avatar';
import { Button } from '../../ui/Button';
import { ConfirmDialog } from '../../ui/ConfirmDialog';
import { EmptyState } from '../../ui/EmptyState';
import { Field } from '../../ui/Field';
import { formErrors } from '../../ui/formErrors';
import { Textarea } from '../../ui/Input';
import { Card } from '../../ui/Page';
import { QueryState } from '../../ui/QueryState';
import { toast } from '../../ui/Toast';
import { can, useAgent } from '../auth/session';
import { ago, dateTime } from '../inbox/format';
import { type ContactNote, useAddNote, useContactNotes, useDeleteNote } from './queries';

export function ContactNotes({ contactId }: { contactId: number }) {
  const agent = useAgent();
  const mayRead = can(agent, 'contact_notes:read');
  const mayWrite = can(agent, 'contact_notes:write');
  const notes = useContactNotes(contactId, mayRead);
  const add = useAddNote(contactId);
  const remove = useDeleteNote(contactId);
  const [text, setText] = useState('');
  const [deleting, setDeleting] = useState<ContactNote | null>(null);
  if (!mayRead) return null;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!text.trim()) return;
    add.mutate(text, {
      onSuccess: () => {
        setText('');
        toast(t('contacts.noteAdded'));
      },
    });
  };
  const mayDelete = (note: ContactNote) => can(agent, 'contact_notes:delete') || (mayWrite && note.user_id === agent.id);

  return (
    <Card title={t('contacts.notes')}>
      {mayWrite ? (
        <form className="form-stack note-form" onSubmit={submit}>
          <Field label={t('contacts.addNote')} error={formErrors(add.error).field('note') ?? (add.error ? add.error.message : null)}>
            <Textarea value={text} onChange={(event) => setText(event.target.value)} placeholder={t('contacts.notePlaceholder')} rows={3} />
          </Field>
          <div>
            <Button type="submit" variant="primary" size="sm" loading={add.isPending} disabled={!text.trim()}>
              {t('contacts.addNote')}
            </Button>
          </div>
        </form>
      ) : null}
      <QueryState query={notes} isEmpty={(list) => list.length === 0} empty={<EmptyState title={t('contacts.noNotes')} />}>
        {(list) => (
          <ul className="notes">
            {list.map((note) => {
              const author = `${note.first_name} ${note.last_name}`.trim() || t('common.unknown');
              return (
                <li key={note.id} className="note">
                  <div className="note__head">
                    <Avatar name={author} src={note.avatar_url} size="sm" />
                    <span className="note__author">{author}</span>
                    <time className="cell-muted" dateTime={note.created_at} title={dateTime(note.created_at)}>
                      {ago(note.created_at)}
                    </time>
                    {mayDelete(note) ? (
                      <Button
                        size="sm"
                        variant="ghost"
                        className="note__delete"
                        onClick={() => setDeleting(note)}
                        aria-label={t('contacts.deleteNote')}
                      >
                        {t('common.delete')}
                      </Button>
                    ) : null}
                  </div>
                  {/* biome-ignore lint/security/noDangerouslySetInnerHtml: notes are sanitised by the API with the messages' allow-list (docs/api.md, Input rules) */}
                  <div className="note__body" dangerouslySetInnerHTML={{ __html: note.note }} />
                </li>
              );
            })}
          </ul>
        )}
      </QueryState>
      <ConfirmDialog
        open={deleting !== null}
        onOpenChange={(open) => {
          if (!open) setDeleting(null);
        }}
        title={t('contacts.deleteNote')}
        message={t('contacts.deleteNoteConfirm')}
        confirmLabel={t('common.delete')}
        onConfirm={async () => {
          if (deleting) await remove.mutateAsync(deleting.id);
          toast(t('contacts.noteDeleted'));
        }}
      />
    </Card>
  );
}
