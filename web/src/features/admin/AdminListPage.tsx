// The screen most administration lists are: a titled page with a "New" button, the records in a
// table with edit and delete per row, the record's dialog, and a delete confirmation. Each page
// brings its strings, columns, dialog and delete call; the wiring between them lives here once.
import type { QueryKey } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { t } from '../../i18n/t';
import { Button } from '../../ui/Button';
import { EmptyState } from '../../ui/EmptyState';
import { Card, Page } from '../../ui/Page';
import { type QueryLike, QueryState } from '../../ui/QueryState';
import { AdminBack, type Column, DataTable, DeleteDialog, RowActions, useAdminMutation, useEditing } from './crud';

interface Named {
  id: string | number;
  name: string;
}

export interface AdminListPageProps<T extends Named> {
  query: QueryLike<T[]>;
  title: string;
  description: string;
  /** The "New …" button's label, in the page's header (and in the empty state unless `emptyAction` is false). */
  newLabel: string;
  empty: string;
  emptyHint?: string;
  emptyAction?: boolean;
  columns: readonly Column<T>[];
  /** Deletes a record; every query under `invalidate` refreshes afterwards. */
  remove: (record: T) => Promise<unknown>;
  invalidate: readonly QueryKey[];
  /** The confirmation's text when deleting says more than "Delete {name}?". */
  deleteMessage?: (name: string) => string;
  canEdit?: (record: T) => boolean;
  canDelete?: (record: T) => boolean;
  /** Buttons shown before a row's edit and delete. */
  rowButtons?: (record: T) => ReactNode;
  /** The create/edit dialog: `record` is null for a new one. */
  dialog: (props: { open: boolean; record: T | null; onClose: () => void }) => ReactNode;
  /** More dialogs the page opens itself. */
  children?: ReactNode;
}

export function AdminListPage<T extends Named>(props: AdminListPageProps<T>) {
  const { canEdit = () => true, canDelete = () => true } = props;
  const state = useEditing<T>();
  const remove = useAdminMutation(props.remove, { invalidate: props.invalidate, done: t('admin.deleted') });
  const deleting = state.deleting?.name ?? '';
  return (
    <Page
      title={props.title}
      description={props.description}
      back={<AdminBack />}
      actions={
        <Button variant="primary" onClick={state.create}>
          {props.newLabel}
        </Button>
      }
    >
      <Card>
        <QueryState
          query={props.query}
          isEmpty={(list) => list.length === 0}
          empty={
            <EmptyState
              title={props.empty}
              hint={props.emptyHint}
              action={props.emptyAction === false ? undefined : <Button onClick={state.create}>{props.newLabel}</Button>}
            />
          }
        >
          {(list) => (
            <DataTable
              caption={props.title}
              rows={list}
              rowKey={(record) => record.id}
              columns={props.columns}
              actions={(record) => (
                <>
                  {props.rowButtons?.(record)}
                  <RowActions
                    name={record.name}
                    onEdit={canEdit(record) ? () => state.edit(record) : undefined}
                    onDelete={canDelete(record) ? () => state.askDelete(record) : undefined}
                  />
                </>
              )}
            />
          )}
        </QueryState>
      </Card>
      {props.dialog({ open: state.editing !== null, record: state.editing?.record ?? null, onClose: state.close })}
      {props.children}
      <DeleteDialog
        name={deleting}
        open={state.deleting !== null}
        onClose={state.closeDelete}
        message={props.deleteMessage?.(deleting)}
        onConfirm={() => (state.deleting ? remove.mutateAsync(state.deleting) : Promise.resolve())}
      />
    </Page>
  );
}
