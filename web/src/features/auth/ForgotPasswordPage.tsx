// "Forgot password?": asks for the address and answers the same whatever it is (the server never
// tells whether an account exists).
import { type FormEvent, useState } from 'react';
import { Link } from 'react-router';
import { t } from '../../i18n/t';
import { Button } from '../../ui/Button';
import { Field } from '../../ui/Field';
import { Input } from '../../ui/Input';
import { useRequestPasswordReset } from './passwords';

export function ForgotPasswordPage() {
  const [email, setEmail] = useState('');
  const request = useRequestPasswordReset();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    request.mutate(email.trim());
  };

  return (
    <main className="auth-page">
      <form className="auth-card" onSubmit={submit} noValidate aria-labelledby="forgot-title">
        <div className="auth-card__brand" aria-hidden>
          <img src="/favicon.svg" alt="" width={32} height={32} />
          <span>{t('app.name')}</span>
        </div>
        <h1 id="forgot-title">{t('password.forgot.title')}</h1>
        {request.isSuccess ? (
          <output className="auth-card__notice">{t('password.forgot.sent', { email: request.variables ?? '' })}</output>
        ) : (
          <>
            <p className="auth-card__intro">{t('password.forgot.intro')}</p>
            {request.error ? (
              <p className="form-error" role="alert">
                {request.error.message}
              </p>
            ) : null}
            <Field label={t('password.forgot.email')}>
              <Input type="email" name="email" autoComplete="username" required value={email} onChange={(e) => setEmail(e.target.value)} />
            </Field>
            <Button type="submit" variant="primary" loading={request.isPending}>
              {request.isPending ? t('password.forgot.submitting') : t('password.forgot.submit')}
            </Button>
          </>
        )}
        <Link to="/login" className="auth-card__link">
          {t('password.forgot.back')}
        </Link>
      </form>
    </main>
  );
}
