import { type FormEvent, useState } from 'react';
import { Link, Navigate, useNavigate, useSearchParams } from 'react-router';
import { ApiError } from '../../api/client';
import { t } from '../../i18n/t';
import { Button } from '../../ui/Button';
import { Field } from '../../ui/Field';
import { Input } from '../../ui/Input';
import { Loading } from '../../ui/Spinner';
import { MfaStep } from './MfaStep';
import { useMe, useLogin, useSsoProviders } from './session';
import { useSetupNeeded } from './setup';

/** Only a path of this site: never another origin (the same rule as the server's `next`). */
export function safeNext(next: string | null): string {
  if (!next || !next.startsWith('/') || next.startsWith('//') || next.includes('\\')) return '/inbox/mine';
  return next;
}

export function LoginPage() {
  const [params] = useSearchParams();
  const next = safeNext(params.get('next'));
  const navigate = useNavigate();
  const me = useMe();
  const setup = useSetupNeeded();
  const sso = useSsoProviders();
  const login = useLogin();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  // Two-factor sign-in on: the password step answered a challenge, and the code step follows.
  const [challenge, setChallenge] = useState<string | null>(null);
  const [restarted, setRestarted] = useState('');

  if (me.data) return <Navigate to={next} replace />;
  if (setup.data?.needed) return <Navigate to="/setup" replace />;
  if (me.isPending || setup.isPending) return <Loading />;

  if (challenge)
    return (
      <main className="auth-page">
        <MfaStep
          challenge={challenge}
          onSignedIn={() => navigate(next, { replace: true })}
          onRestart={(reason) => {
            setChallenge(null);
            setPassword('');
            login.reset();
            setRestarted(reason);
          }}
        />
      </main>
    );

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setRestarted('');
    login.mutate(
      { email, password },
      { onSuccess: (answer) => ('mfa_required' in answer ? setChallenge(answer.challenge) : navigate(next, { replace: true })) },
    );
  };
  const error = login.error
    ? login.error instanceof ApiError && login.error.status === 401
      ? t('login.failed')
      : login.error.message
    : restarted || null;

  return (
    <main className="auth-page">
      <form className="auth-card" onSubmit={submit} noValidate aria-labelledby="login-title">
        <div className="auth-card__brand" aria-hidden>
          <img src="/favicon.svg" alt="" width={32} height={32} />
          <span>{t('app.name')}</span>
        </div>
        <h1 id="login-title">{t('login.title')}</h1>
        {params.get('password') === 'set' && !error ? <output className="auth-card__notice">{t('password.set.done')}</output> : null}
        {error ? (
          <p className="form-error" role="alert">
            {error}
          </p>
        ) : null}
        <Field label={t('login.email')}>
          <Input type="email" name="email" autoComplete="username" required value={email} onChange={(e) => setEmail(e.target.value)} />
        </Field>
        <Field label={t('login.password')}>
          <Input
            type="password"
            name="password"
            autoComplete="current-password"
            required
            value={password}
            onChange={(e) => setPassword(e.target.value)}
          />
        </Field>
        <Button type="submit" variant="primary" loading={login.isPending}>
          {login.isPending ? t('login.submitting') : t('login.submit')}
        </Button>
        <Link to="/forgot-password" className="auth-card__link">
          {t('password.forgotLink')}
        </Link>
        {sso.data && sso.data.length > 0 ? (
          <>
            <p className="auth-card__or">{t('login.or')}</p>
            {sso.data.map((provider) => (
              // A full navigation: the server redirects to the provider and back with the session.
              <a
                key={provider.id}
                className="ui-button ui-button--secondary ui-button--md"
                href={`${new URL(provider.login_url).pathname}?next=${encodeURIComponent(next)}`}
              >
                {provider.logo_url ? <img src={provider.logo_url} alt="" width={16} height={16} /> : null}
                {t('login.sso', { name: provider.name })}
              </a>
            ))}
          </>
        ) : null}
      </form>
    </main>
  );
}
