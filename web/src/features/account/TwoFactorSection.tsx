// Two-factor sign-in (TOTP) in the account settings: its state, enrolment with the recovery
// codes shown once, and turning it off with the password and a code.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { api, unwrap } from '../../api/client';
import { keys } from '../../api/keys';
import { t } from '../../i18n/t';
import { Badge } from '../../ui/Badge';
import { Button } from '../../ui/Button';
import { Field } from '../../ui/Field';
import { formErrors } from '../../ui/formErrors';
import { Input } from '../../ui/Input';
import { Card, ErrorBanner } from '../../ui/Page';
import { toast } from '../../ui/Toast';
import { useAgent } from '../auth/session';
import { TwoFactorEnrolment } from './TwoFactorEnrolment';
import './two-factor.css';

function DisableForm({ onDone, onCancel }: { onDone: () => void; onCancel: () => void }) {
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const disable = useMutation({
    mutationFn: () =>
      unwrap(
        api.POST('/api/v1/agents/me/2fa/disable', {
          body: { ...(password ? { password } : {}), code: code.trim() },
        }),
      ),
    onSuccess: onDone,
  });
  const errors = formErrors(disable.error);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    disable.mutate();
  };
  return (
    <form className="form-stack" onSubmit={submit} aria-label={t('account.2fa.disableTitle')}>
      <Field label={t('account.2fa.password')} error={errors.field('password')}>
        <Input type="password" autoComplete="current-password" value={password} onChange={(e) => setPassword(e.target.value)} />
      </Field>
      <Field label={t('account.2fa.disableCode')} error={errors.field('code')}>
        <Input
          name="disable-code"
          autoComplete="one-time-code"
          maxLength={32}
          required
          value={code}
          onChange={(e) => setCode(e.target.value)}
        />
      </Field>
      <ErrorBanner message={errors.banner(['password', 'code'])} />
      <div className="two-factor__actions">
        <Button type="submit" variant="danger" loading={disable.isPending} disabled={code.trim().length === 0}>
          {t('account.2fa.disable')}
        </Button>
        <Button onClick={onCancel}>{t('account.2fa.cancel')}</Button>
      </div>
    </form>
  );
}

export function TwoFactorSection() {
  const agent = useAgent();
  const client = useQueryClient();
  const [mode, setMode] = useState<'idle' | 'enrolling' | 'disabling'>('idle');
  const refresh = () => client.invalidateQueries({ queryKey: keys.me });
  const on = agent.two_factor_enabled;
  let body: React.ReactNode;
  // Off, or its recovery codes still on screen: the enrolment (one element, so its state stays).
  if (!on || mode === 'enrolling')
    body = (
      <div className="form-stack">
        <p className="cell-muted">{t('account.2fa.off')}</p>
        <TwoFactorEnrolment
          onEnabled={() => {
            setMode('enrolling');
            toast(t('account.2fa.enabled'));
          }}
          onDone={() => {
            setMode('idle');
            void refresh();
          }}
        />
      </div>
    );
  else if (mode === 'disabling')
    body = (
      <DisableForm
        onCancel={() => setMode('idle')}
        onDone={() => {
          setMode('idle');
          toast(t('account.2fa.disabled'));
          void refresh();
        }}
      />
    );
  else
    body = (
      <div className="form-stack">
        <p className="cell-muted">{t('account.2fa.on')}</p>
        <div>
          <Button onClick={() => setMode('disabling')}>{t('account.2fa.disable')}</Button>
        </div>
      </div>
    );
  return (
    <Card
      title={t('account.2fa.title')}
      id="account-two-factor"
      actions={<Badge tone={on ? 'success' : 'neutral'}>{on ? t('account.2fa.badgeOn') : t('account.2fa.badgeOff')}</Badge>}
    >
      {body}
    </Card>
  );
}
