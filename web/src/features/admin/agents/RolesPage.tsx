// Roles: named sets of permissions. Admin holds every permission; Admin and Agent cannot be
// renamed or deleted; a role agents hold cannot be deleted (the API says how many hold it).
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { api, type Schemas, unwrap } from '../../../api/client';
import { keys } from '../../../api/keys';
import { isMessageKey, t, type MessageKey } from '../../../i18n/t';
import { Badge } from '../../../ui/Badge';
import { CheckboxGroup } from '../../../ui/CheckboxGroup';
import { Field } from '../../../ui/Field';
import { formErrors } from '../../../ui/formErrors';
import { Input } from '../../../ui/Input';
import { QueryState } from '../../../ui/QueryState';
import { Switch } from '../../../ui/Switch';
import { FormDialog, useAdminMutation } from '../crud';
import { AdminListPage } from '../AdminListPage';
import { useRoles } from '../fields';
import { useOnOpen } from '../../../ui/useOnOpen';

type Role = Schemas['Role'];

const GROUPS: Record<string, MessageKey> = {
  conversations: 'admin.roles.group.conversations',
  messages: 'admin.roles.group.messages',
  contacts: 'admin.roles.group.contacts',
  contact_notes: 'admin.roles.group.contact_notes',
};

/**
 * A permission's label and description from the catalogue (en-permissions.ts); one the catalogue
 * does not know yet (a server newer than the app) shows its key.
 */
function permissionText(permission: string): { label: string; description?: string } {
  const label = `permission.${permission}`;
  const hint = `${label}.hint`;
  if (!isMessageKey(label)) return { label: permission };
  return { label: t(label), ...(isMessageKey(hint) ? { description: t(hint) } : {}) };
}

/** Permissions by resource (`conversations:read` → conversations), each group in catalogue order. */
function grouped(permissions: readonly string[]): Array<[string, string[]]> {
  const groups = new Map<string, string[]>();
  for (const permission of permissions) {
    const resource = permission.split(':')[0] ?? permission;
    const key = GROUPS[resource] ? resource : 'administration';
    groups.set(key, [...(groups.get(key) ?? []), permission]);
  }
  return [...groups.entries()];
}

function RoleDialog({ role, open, onClose }: { role: Role | null; open: boolean; onClose: () => void }) {
  const catalogue = useQuery({
    queryKey: keys.admin.permissions,
    queryFn: () => unwrap(api.GET('/api/v1/permissions')),
    staleTime: Infinity,
  });
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [permissions, setPermissions] = useState<string[]>([]);
  const [require2fa, setRequire2fa] = useState(false);
  const save = useAdminMutation(
    () => {
      const body = {
        ...(role?.is_builtin ? {} : { name: name.trim() }),
        description: description.trim(),
        permissions,
        require_2fa: require2fa,
      };
      return role
        ? unwrap(api.PUT('/api/v1/roles/{id}', { params: { path: { id: role.id } }, body }))
        : unwrap(api.POST('/api/v1/roles', { body: { ...body, name: name.trim() } }));
    },
    // A role's permissions are every holder's: the signed-in agent's too.
    { invalidate: [keys.admin.roles, ['agents'], keys.me], done: (saved) => t('admin.roles.saved', { name: saved.name }) },
  );
  useOnOpen(open, role, () => {
    setName(role?.name ?? '');
    setDescription(role?.description ?? '');
    setPermissions(role ? [...role.permissions] : []);
    setRequire2fa(role?.require_2fa ?? false);
    save.reset();
  });
  const errors = formErrors(save.error);
  const locked = role?.name === 'Admin' && role.is_builtin;
  return (
    <FormDialog
      open={open}
      onOpenChange={(next) => (next ? null : onClose())}
      title={role ? t('admin.roles.edit') : t('admin.roles.new')}
      onSubmit={() => save.mutate(undefined, { onSuccess: onClose })}
      pending={save.isPending}
      banner={errors.banner(['name', 'description', 'permissions'])}
      size="lg"
    >
      <div className="form-grid">
        <Field
          label={t('admin.field.name')}
          hint={role?.is_builtin ? t('admin.roles.builtInHint') : undefined}
          error={errors.field('name')}
        >
          <Input value={name} onChange={(e) => setName(e.target.value)} disabled={role?.is_builtin} autoComplete="off" />
        </Field>
        <Field label={t('admin.field.description')} error={errors.field('description')}>
          <Input value={description} onChange={(e) => setDescription(e.target.value)} autoComplete="off" />
        </Field>
      </div>
      <Switch
        checked={require2fa}
        onCheckedChange={setRequire2fa}
        label={t('admin.roles.require2fa')}
        hint={t('admin.roles.require2faHint')}
      />
      {locked ? <p className="notice">{t('admin.roles.adminLocked')}</p> : null}
      <QueryState query={catalogue}>
        {(all) => (
          <div className="form-stack">
            {grouped(all).map(([group, list]) => (
              <CheckboxGroup
                key={group}
                legend={GROUPS[group] ? t(GROUPS[group]) : t('admin.roles.group.administration')}
                options={list.map((permission) => ({ value: permission, ...permissionText(permission) }))}
                value={permissions.filter((p) => list.includes(p))}
                onChange={(value) => {
                  if (locked) return;
                  setPermissions([...permissions.filter((p) => !list.includes(p)), ...value]);
                }}
              />
            ))}
          </div>
        )}
      </QueryState>
      {errors.field('permissions') ? (
        <p className="ui-field__error" role="alert">
          {errors.field('permissions')}
        </p>
      ) : null}
    </FormDialog>
  );
}

export function RolesPage() {
  const roles = useRoles();
  return (
    <AdminListPage
      query={roles}
      title={t('admin.roles.title')}
      description={t('admin.roles.hint')}
      newLabel={t('admin.roles.new')}
      empty={t('admin.roles.empty')}
      emptyAction={false}
      remove={(role) => unwrap(api.DELETE('/api/v1/roles/{id}', { params: { path: { id: role.id } } }))}
      invalidate={[keys.admin.roles]}
      canDelete={(role) => !role.is_builtin}
      dialog={({ open, record, onClose }) => <RoleDialog open={open} role={record} onClose={onClose} />}
      columns={[
        {
          key: 'name',
          header: t('admin.field.name'),
          render: (role) => (
            <span>
              <span className="row-name">{role.name}</span> {role.is_builtin ? <Badge>{t('admin.statuses.builtIn')}</Badge> : null}
              {role.description ? <span className="row-sub">{role.description}</span> : null}
            </span>
          ),
        },
        {
          key: 'permissions',
          header: t('admin.roles.permissions'),
          numeric: true,
          render: (role) => t('admin.roles.permissionCount', { n: role.permissions.length }),
        },
      ]}
    />
  );
}
