// Tags: the names agents put on conversations. Create, rename, delete (deleting takes the tag off
// every conversation).
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { api, type Schemas, unwrap } from '../../../api/client';
import { keys } from '../../../api/keys';
import { t } from '../../../i18n/t';
import { Button } from '../../../ui/Button';
import { EmptyState } from '../../../ui/EmptyState';
import { Field } from '../../../ui/Field';
import { formErrors } from '../../../ui/formErrors';
import { Input } from '../../../ui/Input';
import { Card, Page } from '../../../ui/Page';
import { QueryState } from '../../../ui/QueryState';
import { dateTime } from '../../inbox/format';
import { AdminBack, DataTable, DeleteDialog, FormDialog, RowActions, useAdminMutation, useEditing } from '../crud';

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
  // biome-ignore lint/correctness/useExhaustiveDependencies: a dialog opened again starts from the record
  useEffect(() => {
    if (open) {
      setName(tag?.name ?? '');
      save.reset();
    }
  }, [open, tag]);
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
  const state = useEditing<Tag>();
  const remove = useAdminMutation((tag: Tag) => unwrap(api.DELETE('/api/v1/tags/{id}', { params: { path: { id: tag.id } } })), {
    invalidate: [keys.tags, keys.conversations.all],
    done: t('admin.deleted'),
  });
  return (
    <Page
      title={t('admin.tags.title')}
      description={t('admin.tags.hint')}
      back={<AdminBack />}
      actions={
        <Button variant="primary" onClick={state.create}>
          {t('admin.tags.new')}
        </Button>
      }
    >
      <Card>
        <QueryState
          query={tags}
          isEmpty={(list) => list.length === 0}
          empty={<EmptyState title={t('admin.tags.empty')} action={<Button onClick={state.create}>{t('admin.tags.new')}</Button>} />}
        >
          {(list) => (
            <DataTable
              caption={t('admin.tags.title')}
              rows={list}
              rowKey={(tag) => tag.id}
              columns={[
                { key: 'name', header: t('admin.field.name'), render: (tag) => <span className="row-name">{tag.name}</span> },
                {
                  key: 'created',
                  header: t('admin.field.created'),
                  optional: true,
                  render: (tag) => <span className="cell-muted">{dateTime(tag.created_at)}</span>,
                },
              ]}
              actions={(tag) => <RowActions name={tag.name} onEdit={() => state.edit(tag)} onDelete={() => state.askDelete(tag)} />}
            />
          )}
        </QueryState>
      </Card>
      <TagDialog open={state.editing !== null} tag={state.editing?.record ?? null} onClose={state.close} />
      <DeleteDialog
        name={state.deleting?.name ?? ''}
        open={state.deleting !== null}
        onClose={state.closeDelete}
        message={t('admin.tags.deleteConfirm', { name: state.deleting?.name ?? '' })}
        onConfirm={() => (state.deleting ? remove.mutateAsync(state.deleting) : Promise.resolve())}
      />
    </Page>
  );
}
