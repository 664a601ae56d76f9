// The pieces every administration list shares: a mutation that refreshes what it changed and
// says so, a table with row actions, a dialog holding a form, and a delete confirmation.
import { ArrowLeft } from 'lucide-react';
import { type QueryKey, useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, type ReactNode, useState } from 'react';
import { Link } from 'react-router';
import { t } from '../../i18n/t';
import { Button } from '../../ui/Button';
import { ConfirmDialog } from '../../ui/ConfirmDialog';
import { Dialog } from '../../ui/Dialog';
import { ErrorBanner } from '../../ui/Page';

export { type Column, DataTable } from '../../ui/DataTable';
import { toast } from '../../ui/Toast';

/** A write that, once it succeeds, refreshes every query under `invalidate` and shows `done`. */
export function useAdminMutation<Vars, Result>(
  mutationFn: (vars: Vars) => Promise<Result>,
  options: { invalidate: readonly QueryKey[]; done?: string | ((result: Result) => string) },
) {
  const client = useQueryClient();
  return useMutation({
    mutationFn,
    onSuccess: async (result) => {
      await Promise.all(options.invalidate.map((queryKey) => client.invalidateQueries({ queryKey })));
      const message = typeof options.done === 'function' ? options.done(result) : options.done;
      if (message) toast(message);
    },
  });
}

/** Edit and delete buttons of a row, named after the row for screen readers. */
export function RowActions({ name, onEdit, onDelete }: { name: string; onEdit?: () => void; onDelete?: () => void }) {
  return (
    <>
      {onEdit ? (
        <Button size="sm" variant="ghost" onClick={onEdit} aria-label={t('admin.editNamed', { name })}>
          {t('admin.edit')}
        </Button>
      ) : null}
      {onDelete ? (
        <Button size="sm" variant="ghost" className="danger-text" onClick={onDelete} aria-label={t('admin.deleteNamed', { name })}>
          {t('common.delete')}
        </Button>
      ) : null}
    </>
  );
}

/** A dialog around a form: Enter submits, the footer's buttons are the form's. */
export function FormDialog({
  open,
  onOpenChange,
  title,
  onSubmit,
  pending,
  banner,
  children,
  submitLabel,
  size = 'md',
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  onSubmit: () => void;
  pending: boolean;
  banner: string | null;
  children: ReactNode;
  submitLabel?: string;
  size?: 'sm' | 'md' | 'lg';
}) {
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSubmit();
  };
  return (
    <Dialog open={open} onOpenChange={onOpenChange} title={title} size={size}>
      <form className="form-stack" onSubmit={submit} noValidate>
        <ErrorBanner message={banner} />
        {children}
        <div className="ui-dialog__footer">
          <Button onClick={() => onOpenChange(false)}>{t('common.cancel')}</Button>
          <Button type="submit" variant="primary" loading={pending}>
            {submitLabel ?? t('common.save')}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}

/** Which record a list is editing (null: a new one) and which it asks to delete. */
export function useEditing<T>() {
  const [editing, setEditing] = useState<{ record: T | null } | null>(null);
  const [deleting, setDeleting] = useState<T | null>(null);
  return {
    editing,
    create: () => setEditing({ record: null }),
    edit: (record: T) => setEditing({ record }),
    close: () => setEditing(null),
    deleting,
    askDelete: (record: T) => setDeleting(record),
    closeDelete: () => setDeleting(null),
  };
}

/** "Delete {name}?" for a list's record; the deletion's error stays in the dialog. */
export function DeleteDialog({
  name,
  open,
  onClose,
  onConfirm,
  message,
}: {
  name: string;
  open: boolean;
  onClose: () => void;
  onConfirm: () => Promise<unknown>;
  message?: string;
}) {
  return (
    <ConfirmDialog
      open={open}
      onOpenChange={(next) => {
        if (!next) onClose();
      }}
      title={t('admin.deleteTitle', { name })}
      message={message ?? t('admin.deleteConfirm', { name })}
      confirmLabel={t('common.delete')}
      onConfirm={onConfirm}
    />
  );
}

/** On a phone the admin menu is the admin home: every admin screen links back to it. */
export function AdminBack() {
  return (
    <Link to="/admin" className="admin-back">
      <ArrowLeft size={16} aria-hidden /> {t('admin.title')}
    </Link>
  );
}
