// The second step of a sign-in with two-factor sign-in on: the code of the authenticator app, or
// a recovery code. A challenge that expired or took too many wrong codes sends the agent back to
// the password step.
import { type FormEvent, useState } from 'react';
import { ApiError } from '../../api/client';
import { t } from '../../i18n/t';
import { Button } from '../../ui/Button';
import { Field } from '../../ui/Field';
import { Input } from '../../ui/Input';
import { useMfaSignIn } from './session';

export function MfaStep({
  challenge,
  onSignedIn,
  onRestart,
}: {
  challenge: string;
  onSignedIn: () => void;
  onRestart: (reason: string) => void;
}) {
  const mfa = useMfaSignIn();
  const [code, setCode] = useState('');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    mfa.mutate(
      { challenge, code: code.trim() },
      {
        onSuccess: onSignedIn,
        onError: (error) => {
          // The challenge is gone (expired, or the fifth wrong code): start again from the password.
          if (error instanceof ApiError && error.status === 401 && /challenge/i.test(error.message)) onRestart(t('login.mfa.expired'));
          setCode('');
        },
      },
    );
  };
  const error = mfa.error ? (mfa.error instanceof ApiError && mfa.error.status === 401 ? t('login.mfa.failed') : mfa.error.message) : null;
  return (
    <form className="auth-card" onSubmit={submit} noValidate aria-labelledby="mfa-title">
      <div className="auth-card__brand" aria-hidden>
        <img src="/favicon.svg" alt="" width={32} height={32} />
        <span>{t('app.name')}</span>
      </div>
      <h1 id="mfa-title">{t('login.mfa.title')}</h1>
      <p className="auth-card__intro">{t('login.mfa.intro')}</p>
      {error ? (
        <p className="form-error" role="alert">
          {error}
        </p>
      ) : null}
      <Field label={t('login.mfa.code')} hint={t('login.mfa.hint')}>
        <Input
          name="code"
          autoComplete="one-time-code"
          inputMode="text"
          autoFocus
          required
          maxLength={32}
          value={code}
          onChange={(e) => setCode(e.target.value)}
        />
      </Field>
      <Button type="submit" variant="primary" loading={mfa.isPending} disabled={code.trim().length === 0}>
        {t('login.mfa.submit')}
      </Button>
      <Button variant="ghost" onClick={() => onRestart('')}>
        {t('login.mfa.back')}
      </Button>
    </form>
  );
}
