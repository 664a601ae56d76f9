// Tags: the names agents put on conversations. Create, rename, delete (deleting takes the tag off
// every conversation).
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { api, type Schemas, unwrap } from '../../../api/client';
import { keys } from '../../../api/keys';
import { t } from '../../../i18n/t';
import { Field } from '../../../ui/Field';
import { formErrors } from '../../../ui/formErrors';
import { Input } from '../../../ui/Input';
import { dateTime } from '../../inbox/format';
import { FormDialog, useAdminMutation } from '../crud';
import { AdminListPage } from '../AdminListPage';
import { useOnOpen } from '../../../ui/useOnOpen';

type Tag = Schemas['Tag'];

function TagDialog({ tag, open, onClose }: { tag: Tag | null; open: boolean; onClose: () => void }) {
  const [name, setName] = useState('');
  const save = useAdminMutation(
    (value: string) =>
      tag
        ? unwrap(api.PUT('/api/v1/tags/{id}', { params: { path: { id: tag.id } }, body: { name: value } }))
        : unwrap(api.POST('/api/v1/tags', { body: { name: value } })),
    { invalidate: [keys.tags], done: (saved) => t('admin.tags.saved', { name: saved.name }) },
  );
  useOnOpen(open, tag, () => {
    setName(tag?.name ?? '');
    save.reset();
  });
  const errors = formErrors(save.error);
  return (
    <FormDialog
      open={open}
      onOpenChange={(next) => (next ? null : onClose())}
      title={tag ? t('admin.tags.edit') : t('admin.tags.new')}
      onSubmit={() => save.mutate(name.trim(), { onSuccess: onClose })}
      pending={save.isPending}
      banner={errors.banner(['name'])}
      size="sm"
    >
      <Field label={t('admin.field.name')} error={errors.field('name')}>
        <Input value={name} onChange={(event) => setName(event.target.value)} maxLength={100} required autoComplete="off" />
      </Field>
    </FormDialog>
  );
}

export function TagsPage() {
  const tags = useQuery({ queryKey: keys.tags, queryFn: () => unwrap(api.GET('/api/v1/tags')) });
  return (
    <AdminListPage
      query={tags}
      title={t('admin.tags.title')}
      description={t('admin.tags.hint')}
      newLabel={t('admin.tags.new')}
      empty={t('admin.tags.empty')}
      remove={(tag) => unwrap(api.DELETE('/api/v1/tags/{id}', { params: { path: { id: tag.id } } }))}
      invalidate={[keys.tags, keys.conversations.all]}
      deleteMessage={(name) => t('admin.tags.deleteConfirm', { name })}
      dialog={({ open, record, onClose }) => <TagDialog open={open} tag={record} onClose={onClose} />}
      columns={[
        { key: 'name', header: t('admin.field.name'), render: (tag) => <span className="row-name">{tag.name}</span> },
        {
          key: 'created',
          header: t('admin.field.created'),
          optional: true,
          render: (tag) => <span className="cell-muted">{dateTime(tag.created_at)}</span>,
        },
      ]}
    />
  );
}
