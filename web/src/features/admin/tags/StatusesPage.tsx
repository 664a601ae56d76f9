// Conversation statuses: each in a category (open, waiting, resolved) that decides what it means
// for lists, SLAs and surveys. The four built-in ones cannot be renamed or deleted.
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { api, type Schemas, unwrap } from '../../../api/client';
import { keys } from '../../../api/keys';
import { t } from '../../../i18n/t';
import { Badge, type Tone } from '../../../ui/Badge';
import { Field } from '../../../ui/Field';
import { formErrors } from '../../../ui/formErrors';
import { Input } from '../../../ui/Input';
import { Select } from '../../../ui/Select';
import { FormDialog, useAdminMutation } from '../crud';
import { AdminListPage } from '../AdminListPage';
import { useOnOpen } from '../../../ui/useOnOpen';

type Status = Schemas['ConversationStatus'];
type Category = Status['category'];
const CATEGORIES: readonly Category[] = ['open', 'waiting', 'resolved'];
const TONE: Record<Category, Tone> = { open: 'accent', waiting: 'warning', resolved: 'success' };

function StatusDialog({ status, open, onClose }: { status: Status | null; open: boolean; onClose: () => void }) {
  const [name, setName] = useState('');
  const [category, setCategory] = useState<Category>('open');
  const save = useAdminMutation(
    (body: { name: string; category: Category }) =>
      status
        ? unwrap(api.PUT('/api/v1/statuses/{id}', { params: { path: { id: status.id } }, body }))
        : unwrap(api.POST('/api/v1/statuses', { body })),
    { invalidate: [keys.statuses], done: (saved) => t('admin.statuses.saved', { name: saved.name }) },
  );
  useOnOpen(open, status, () => {
    setName(status?.name ?? '');
    setCategory(status?.category ?? 'open');
    save.reset();
  });
  const errors = formErrors(save.error);
  return (
    <FormDialog
      open={open}
      onOpenChange={(next) => (next ? null : onClose())}
      title={status ? t('admin.statuses.edit') : t('admin.statuses.new')}
      onSubmit={() => save.mutate({ name: name.trim(), category }, { onSuccess: onClose })}
      pending={save.isPending}
      banner={errors.banner(['name', 'category'])}
      size="sm"
    >
      <Field label={t('admin.field.name')} error={errors.field('name')}>
        <Input value={name} onChange={(event) => setName(event.target.value)} maxLength={100} autoComplete="off" />
      </Field>
      <Field label={t('admin.statuses.category')} hint={t('admin.statuses.categoryHint')} error={errors.field('category')}>
        <Select
          value={category}
          onValueChange={(value) => setCategory(CATEGORIES.find((c) => c === value) ?? 'open')}
          options={CATEGORIES.map((value) => ({ value, label: t(`admin.statuses.category.${value}`) }))}
        />
      </Field>
    </FormDialog>
  );
}

export function StatusesPage() {
  const statuses = useQuery({ queryKey: keys.statuses, queryFn: () => unwrap(api.GET('/api/v1/statuses')) });
  return (
    <AdminListPage
      query={statuses}
      title={t('admin.statuses.title')}
      description={t('admin.statuses.hint')}
      newLabel={t('admin.statuses.new')}
      empty={t('admin.statuses.empty')}
      emptyAction={false}
      remove={(status) => unwrap(api.DELETE('/api/v1/statuses/{id}', { params: { path: { id: status.id } } }))}
      invalidate={[keys.statuses]}
      // The built-in statuses can be neither renamed nor deleted.
      canEdit={(status) => !status.is_system}
      canDelete={(status) => !status.is_system}
      dialog={({ open, record, onClose }) => <StatusDialog open={open} status={record} onClose={onClose} />}
      columns={[
        {
          key: 'name',
          header: t('admin.field.name'),
          render: (status) => (
            <span className="row-name">
              {status.name} {status.is_system ? <Badge>{t('admin.statuses.builtIn')}</Badge> : null}
            </span>
          ),
        },
        {
          key: 'category',
          header: t('admin.statuses.category'),
          render: (status) => <Badge tone={TONE[status.category]}>{t(`admin.statuses.category.${status.category}`)}</Badge>,
        },
      ]}
    />
  );
}
