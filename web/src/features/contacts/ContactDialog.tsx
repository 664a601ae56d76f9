// Create or edit a contact: names, email and phone. The API's field errors show beside their fields.
// A contact's email is part of its identity (replies go there): an agent without
// `contacts:write_identity` sees it read-only when editing, and the update leaves it out.
import { type FormEvent, useState } from 'react';
import { t } from '../../i18n/t';
import { Button } from '../../ui/Button';
import { Dialog } from '../../ui/Dialog';
import { Field } from '../../ui/Field';
import { formErrors } from '../../ui/formErrors';
import { Input } from '../../ui/Input';
import { ErrorBanner } from '../../ui/Page';
import { toast } from '../../ui/Toast';
import { can, useAgent } from '../auth/session';
import { type Contact, type ContactInput, useSaveContact } from './queries';
import { useOnOpen } from '../../ui/useOnOpen';

const FIELDS = ['first_name', 'last_name', 'email', 'phone_number', 'phone_number_country_code'] as const;

function initial(contact: Contact | null): Record<(typeof FIELDS)[number], string> {
  return {
    first_name: contact?.first_name ?? '',
    last_name: contact?.last_name ?? '',
    email: contact?.email ?? '',
    phone_number: contact?.phone_number ?? '',
    phone_number_country_code: contact?.phone_number_country_code ?? '',
  };
}

export function ContactDialog({
  open,
  onOpenChange,
  contact,
  onSaved,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  contact: Contact | null;
  onSaved?: (contact: Contact) => void;
}) {
  const [form, setForm] = useState(() => initial(contact));
  const save = useSaveContact();
  const agent = useAgent();
  // Creating a contact gives it its first email; changing one needs the identity permission.
  const emailLocked = contact !== null && !can(agent, 'contacts:write_identity');
  useOnOpen(open, contact, () => {
    setForm(initial(contact));
    save.reset();
  });
  const errors = formErrors(save.error);
  const set = (name: keyof typeof form) => (event: { target: { value: string } }) => setForm({ ...form, [name]: event.target.value });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const blankToNull = (value: string) => (value.trim() === '' ? null : value.trim());
    const body: ContactInput = {
      first_name: form.first_name.trim(),
      last_name: form.last_name.trim(),
      ...(emailLocked ? {} : { email: blankToNull(form.email) }),
      phone_number: blankToNull(form.phone_number),
      phone_number_country_code: blankToNull(form.phone_number_country_code),
    };
    save.mutate(
      { id: contact?.id ?? null, body },
      {
        onSuccess: (saved) => {
          toast(contact ? t('contacts.saved') : t('contacts.created'));
          onOpenChange(false);
          onSaved?.(saved);
        },
      },
    );
  };

  return (
    <Dialog open={open} onOpenChange={onOpenChange} title={contact ? t('contacts.edit') : t('contacts.new')}>
      <form className="form-stack" onSubmit={submit} noValidate>
        <ErrorBanner message={errors.banner(FIELDS)} />
        <div className="form-grid">
          <Field label={t('contacts.field.firstName')} error={errors.field('first_name')}>
            <Input value={form.first_name} onChange={set('first_name')} required autoComplete="off" />
          </Field>
          <Field label={t('contacts.field.lastName')} error={errors.field('last_name')}>
            <Input value={form.last_name} onChange={set('last_name')} autoComplete="off" />
          </Field>
          <div className="form-grid__full">
            <Field
              label={t('contacts.field.email')}
              hint={emailLocked ? t('contacts.field.emailLocked') : undefined}
              error={errors.field('email')}
            >
              <Input type="email" value={form.email} onChange={set('email')} autoComplete="off" readOnly={emailLocked} />
            </Field>
          </div>
          <Field
            label={t('contacts.field.countryCode')}
            hint={t('contacts.field.countryCodeHint')}
            error={errors.field('phone_number_country_code')}
          >
            <Input value={form.phone_number_country_code} onChange={set('phone_number_country_code')} maxLength={2} autoComplete="off" />
          </Field>
          <Field label={t('contacts.field.phone')} error={errors.field('phone_number')}>
            <Input type="tel" value={form.phone_number} onChange={set('phone_number')} autoComplete="off" />
          </Field>
        </div>
        <div className="ui-dialog__footer">
          <Button onClick={() => onOpenChange(false)}>{t('common.cancel')}</Button>
          <Button type="submit" variant="primary" loading={save.isPending}>
            {t('common.save')}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
