import { type FormEvent, useState } from 'react';
import { Navigate, useNavigate } from 'react-router';
import { ApiError } from '../../api/client';
import { t } from '../../i18n/t';
import { Button } from '../../ui/Button';
import { Field } from '../../ui/Field';
import { Input } from '../../ui/Input';
import { Loading } from '../../ui/Spinner';
import { useCreateFirstAdmin, useSetupNeeded } from './setup';

/** Which field an input error names (the API's `data.errors[].field`). */
function fieldErrors(error: unknown): Record<string, string> {
  if (!(error instanceof ApiError) || error.status !== 400) return {};
  const data = error.data as { errors?: Array<{ field?: string; reason?: string }> } | null;
  const out: Record<string, string> = {};
  for (const item of data?.errors ?? []) if (item.field) out[item.field.replace(/^body\.?/, '')] = item.reason ?? error.message;
  return out;
}

export function SetupPage() {
  const navigate = useNavigate();
  const setup = useSetupNeeded();
  const create = useCreateFirstAdmin();
  const [form, setForm] = useState({ token: '', first_name: '', last_name: '', email: '', password: '' });

  if (setup.isPending) return <Loading />;
  if (setup.data && !setup.data.needed && !create.isSuccess) return <Navigate to="/login" replace />;

  const update = (name: keyof typeof form) => (event: { target: { value: string } }) => setForm({ ...form, [name]: event.target.value });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate(form, { onSuccess: () => navigate('/inbox/mine', { replace: true }) });
  };
  const errors = fieldErrors(create.error);
  const general = create.error && Object.keys(errors).length === 0 ? create.error.message : null;

  return (
    <main className="auth-page">
      <form className="auth-card" onSubmit={submit} noValidate aria-labelledby="setup-title">
        <div className="auth-card__brand" aria-hidden>
          <img src="/favicon.svg" alt="" width={32} height={32} />
          <span>{t('app.name')}</span>
        </div>
        <h1 id="setup-title">{t('setup.title')}</h1>
        <p className="auth-card__intro">{t('setup.intro')}</p>
        {general ? (
          <p className="form-error" role="alert">
            {general}
          </p>
        ) : null}
        <Field label={t('setup.token')} hint={t('setup.tokenHint')} error={errors['token']}>
          <Input name="token" autoComplete="off" spellCheck={false} required value={form.token} onChange={update('token')} />
        </Field>
        <div className="form-row">
          <Field label={t('setup.firstName')} error={errors['first_name']}>
            <Input name="first_name" autoComplete="given-name" required value={form.first_name} onChange={update('first_name')} />
          </Field>
          <Field label={t('setup.lastName')} error={errors['last_name']}>
            <Input name="last_name" autoComplete="family-name" value={form.last_name} onChange={update('last_name')} />
          </Field>
        </div>
        <Field label={t('setup.email')} error={errors['email']}>
          <Input type="email" name="email" autoComplete="username" required value={form.email} onChange={update('email')} />
        </Field>
        <Field label={t('setup.password')} hint={t('setup.passwordHint')} error={errors['password']}>
          <Input
            type="password"
            name="password"
            autoComplete="new-password"
            required
            minLength={10}
            value={form.password}
            onChange={update('password')}
          />
        </Field>
        <Button type="submit" variant="primary" loading={create.isPending}>
          {create.isPending ? t('setup.submitting') : t('setup.submit')}
        </Button>
      </form>
    </main>
  );
}
