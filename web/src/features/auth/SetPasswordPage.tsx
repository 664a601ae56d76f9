// The page of a mailed link (an invitation or a password reset): choose a password, then sign in.
import { type FormEvent, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { ApiError } from '../../api/client';
import { t } from '../../i18n/t';
import { Button } from '../../ui/Button';
import { Field } from '../../ui/Field';
import { Input } from '../../ui/Input';
import { useSetPassword } from './passwords';

/** The notice the sign-in page shows after a password was set (`/login?password=set`). */
export const PASSWORD_SET_PARAM = 'password';

export function SetPasswordPage() {
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const navigate = useNavigate();
  const save = useSetPassword();
  const [password, setPassword] = useState('');
  const [repeat, setRepeat] = useState('');
  const [problem, setProblem] = useState<string | null>(null);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (password.length < 10) return setProblem(t('password.set.tooShort'));
    if (password !== repeat) return setProblem(t('password.set.mismatch'));
    setProblem(null);
    save.mutate({ token, password }, { onSuccess: () => navigate(`/login?${PASSWORD_SET_PARAM}=set`, { replace: true }) });
  };
  // A 400 without field errors is the link itself (used, expired, unknown).
  const linkDead = save.error instanceof ApiError && save.error.status === 400 && !(save.error.data as { errors?: unknown } | null)?.errors;
  const error = problem ?? (linkDead ? t('password.set.invalid') : (save.error?.message ?? null));

  return (
    <main className="auth-page">
      <form className="auth-card" onSubmit={submit} noValidate aria-labelledby="set-password-title">
        <div className="auth-card__brand" aria-hidden>
          <img src="/favicon.svg" alt="" width={32} height={32} />
          <span>{t('app.name')}</span>
        </div>
        <h1 id="set-password-title">{t('password.set.title')}</h1>
        {token === '' ? (
          <p className="form-error" role="alert">
            {t('password.set.noToken')}
          </p>
        ) : (
          <>
            <p className="auth-card__intro">{t('password.set.intro')}</p>
            {error ? (
              <p className="form-error" role="alert">
                {error}
              </p>
            ) : null}
            <Field label={t('password.set.password')} hint={t('password.set.hint')}>
              <Input
                type="password"
                name="password"
                autoComplete="new-password"
                required
                minLength={10}
                value={password}
                onChange={(e) => setPassword(e.target.value)}
              />
            </Field>
            <Field label={t('password.set.confirm')}>
              <Input
                type="password"
                name="password-repeat"
                autoComplete="new-password"
                required
                value={repeat}
                onChange={(e) => setRepeat(e.target.value)}
              />
            </Field>
            <Button type="submit" variant="primary" loading={save.isPending}>
              {save.isPending ? t('password.set.submitting') : t('password.set.submit')}
            </Button>
          </>
        )}
        {token === '' || linkDead ? (
          <Link to="/forgot-password" className="auth-card__link">
            {t('password.set.askAgain')}
          </Link>
        ) : null}
      </form>
    </main>
  );
}
