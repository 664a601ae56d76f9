// Enrolling in two-factor sign-in: a new secret (as a QR code for the authenticator app and as a
// key to type), confirmed with the app's current code; then the ten recovery codes, shown once,
// with Copy and Download. Used by the account section and by the enrolment hold.
import { useMutation } from '@tanstack/react-query';
import { type FormEvent, useEffect, useState } from 'react';
import { api, unwrap } from '../../api/client';
import { t } from '../../i18n/t';
import { Button } from '../../ui/Button';
import { CopyField } from '../../ui/CopyField';
import { Field } from '../../ui/Field';
import { formErrors } from '../../ui/formErrors';
import { Input } from '../../ui/Input';
import { ErrorBanner } from '../../ui/Page';
import { useAgent } from '../auth/session';

/** The otpauth URL drawn as a QR code, in the browser (the secret never leaves it for an image service). */
function QrCode({ value }: { value: string }) {
  const [src, setSrc] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    import('qrcode')
      // A CommonJS package: its functions are the module's default export.
      .then((mod) => mod.default.toDataURL(value, { margin: 1, width: 192, errorCorrectionLevel: 'M' }))
      .then((url) => {
        if (live) setSrc(url);
      })
      .catch(() => setSrc(null));
    return () => {
      live = false;
    };
  }, [value]);
  return src ? (
    <img className="two-factor__qr" src={src} alt={t('account.2fa.qr')} width={192} height={192} />
  ) : (
    <div className="two-factor__qr" />
  );
}

/** The recovery codes, shown once: copy them, download them, then confirm they are kept. */
export function RecoveryCodes({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  const agent = useAgent();
  const [copied, setCopied] = useState(false);
  const text = codes.join('\n');
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      setCopied(true);
    } catch {
      setCopied(false);
    }
  };
  const download = () => {
    const body = `${t('account.2fa.fileHeader', { email: agent.email ?? '' })}\n\n${text}\n`;
    const url = URL.createObjectURL(new Blob([body], { type: 'text/plain' }));
    const link = document.createElement('a');
    link.href = url;
    link.download = 'parley-recovery-codes.txt';
    link.click();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
  };
  return (
    <section className="form-stack" aria-labelledby="recovery-codes-title">
      <h3 id="recovery-codes-title" className="two-factor__heading">
        {t('account.2fa.codesTitle')}
      </h3>
      <p className="cell-muted">{t('account.2fa.codesIntro')}</p>
      <ul className="two-factor__codes" aria-label={t('account.2fa.codesCount', { n: codes.length })}>
        {codes.map((code) => (
          <li key={code}>
            <code>{code}</code>
          </li>
        ))}
      </ul>
      <div className="two-factor__actions">
        <Button onClick={copy}>{copied ? t('account.2fa.copied') : t('account.2fa.copy')}</Button>
        <Button onClick={download}>{t('account.2fa.download')}</Button>
        <Button variant="primary" onClick={onDone}>
          {t('account.2fa.done')}
        </Button>
      </div>
    </section>
  );
}

/**
 * The enrolment, from the Set up button to the recovery codes. `onEnabled` runs when the codes
 * appear (two-factor sign-in is on from then), `onDone` when the agent confirms it kept them.
 */
export function TwoFactorEnrolment({ onEnabled, onDone, onCancel }: { onEnabled?: () => void; onDone: () => void; onCancel?: () => void }) {
  const [code, setCode] = useState('');
  const [codes, setCodes] = useState<string[] | null>(null);
  const setup = useMutation({ mutationFn: () => unwrap(api.POST('/api/v1/agents/me/2fa/setup')) });
  const enable = useMutation({
    mutationFn: () => unwrap(api.POST('/api/v1/agents/me/2fa/enable', { body: { code: code.replace(/\s/g, '') } })),
    onSuccess: (answer) => {
      setCodes(answer.recovery_codes);
      onEnabled?.();
    },
  });
  if (codes) return <RecoveryCodes codes={codes} onDone={onDone} />;
  if (!setup.data)
    return (
      <div className="form-stack">
        <ErrorBanner message={setup.error?.message} />
        <div>
          <Button variant="primary" loading={setup.isPending} onClick={() => setup.mutate()}>
            {t('account.2fa.setUp')}
          </Button>
        </div>
      </div>
    );
  const errors = formErrors(enable.error);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    enable.mutate();
  };
  return (
    <form className="form-stack" onSubmit={submit}>
      <p className="cell-muted">{t('account.2fa.scan')}</p>
      <div className="two-factor__enrol">
        <QrCode value={setup.data.otpauth_url} />
        <div className="form-stack two-factor__manual">
          <Field label={t('account.2fa.secret')}>
            <CopyField value={setup.data.secret} label={t('account.2fa.secret')} />
          </Field>
          <Field label={t('account.2fa.code')} error={errors.field('code')}>
            <Input
              name="totp-code"
              autoComplete="one-time-code"
              inputMode="numeric"
              maxLength={8}
              required
              value={code}
              onChange={(e) => setCode(e.target.value)}
            />
          </Field>
        </div>
      </div>
      <ErrorBanner message={errors.banner(['code'])} />
      <div className="two-factor__actions">
        <Button type="submit" variant="primary" loading={enable.isPending} disabled={code.trim().length === 0}>
          {t('account.2fa.confirm')}
        </Button>
        {onCancel ? <Button onClick={onCancel}>{t('account.2fa.cancel')}</Button> : null}
      </div>
    </form>
  );
}
