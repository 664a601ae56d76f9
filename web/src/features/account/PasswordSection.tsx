// Changing one's own password: the current one proves it is the agent (an agent who never had one,
// signing in by single sign-on, sets a first one without it). The server ends the other sessions.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { api, unwrap } from '../../api/client';
import { keys } from '../../api/keys';
import { t } from '../../i18n/t';
import { Button } from '../../ui/Button';
import { Field } from '../../ui/Field';
import { formErrors } from '../../ui/formErrors';
import { Input } from '../../ui/Input';
import { Card, ErrorBanner } from '../../ui/Page';
import { toast } from '../../ui/Toast';

export function PasswordSection() {
  const client = useQueryClient();
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const change = useMutation({
    mutationFn: () => unwrap(api.PUT('/api/v1/agents/me', { body: { current_password: current, new_password: next } })),
    onSuccess: (agent) => {
      client.setQueryData(keys.me, agent);
      setCurrent('');
      setNext('');
      toast(t('account.password.changed'));
    },
  });
  const errors = formErrors(change.error);
  const banner = errors.banner(['current_password', 'new_password']);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    change.mutate();
  };
  return (
    <Card title={t('account.password.title')} id="account-password">
      <form className="form-stack" onSubmit={submit}>
        <Field label={t('account.password.current')} error={errors.field('current_password')}>
          <Input type="password" autoComplete="current-password" value={current} onChange={(e) => setCurrent(e.target.value)} />
        </Field>
        <Field label={t('account.password.new')} hint={t('account.password.hint')} error={errors.field('new_password')}>
          <Input
            type="password"
            autoComplete="new-password"
            required
            minLength={10}
            value={next}
            onChange={(e) => setNext(e.target.value)}
          />
        </Field>
        <ErrorBanner message={banner} />
        <div>
          <Button type="submit" disabled={change.isPending || next.length === 0}>
            {t('account.password.save')}
          </Button>
        </div>
      </form>
    </Card>
  );
}
