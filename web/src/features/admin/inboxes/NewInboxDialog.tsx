// A new inbox: a live chat (its settings can follow), or an email address with its mail servers.
// A live chat's JWT secret is in the creation answer only: it is handed to the inbox's page to show.
import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import { api, unwrap } from '../../../api/client';
import { t } from '../../../i18n/t';
import { Field } from '../../../ui/Field';
import { formErrors } from '../../../ui/formErrors';
import { Input } from '../../../ui/Input';
import { Select } from '../../../ui/Select';
import { FormDialog, useAdminMutation } from '../crud';
import { type EmailConfig, newLivechatConfig } from './draft';

type Tls = EmailConfig['imap']['tls'];
interface ServerForm {
  host: string;
  port: string;
  username: string;
  password: string;
  tls: Tls;
}
const EMPTY_IMAP: ServerForm = { host: '', port: '993', username: '', password: '', tls: 'tls' };
const EMPTY_SMTP: ServerForm = { host: '', port: '587', username: '', password: '', tls: 'starttls' };

function ServerFields({
  which,
  value,
  onChange,
  errors,
}: {
  which: 'imap' | 'smtp';
  value: ServerForm;
  onChange: (v: ServerForm) => void;
  errors: ReturnType<typeof formErrors>;
}) {
  const path = `config.${which}`;
  return (
    <fieldset className="form-grid plain-fieldset">
      <legend className="form-section-title form-grid__full">{t(`admin.inboxes.${which}`)}</legend>
      <Field label={t('admin.inboxes.host')} error={errors.field(`${path}.host`)}>
        <Input value={value.host} onChange={(e) => onChange({ ...value, host: e.target.value })} autoComplete="off" spellCheck={false} />
      </Field>
      <Field label={t('admin.inboxes.port')} error={errors.field(`${path}.port`)}>
        <Input type="number" inputMode="numeric" value={value.port} onChange={(e) => onChange({ ...value, port: e.target.value })} />
      </Field>
      <Field label={t('admin.inboxes.username')} error={errors.field(`${path}.username`)}>
        <Input
          value={value.username}
          onChange={(e) => onChange({ ...value, username: e.target.value })}
          autoComplete="off"
          spellCheck={false}
        />
      </Field>
      <Field label={t('admin.inboxes.password')} error={errors.field(`${path}.password`)}>
        <Input
          type="password"
          value={value.password}
          onChange={(e) => onChange({ ...value, password: e.target.value })}
          autoComplete="new-password"
        />
      </Field>
      <Field label={t('admin.inboxes.tls')} error={errors.field(`${path}.tls`)}>
        <Select
          value={value.tls}
          onValueChange={(tls) => onChange({ ...value, tls: tls === 'none' || tls === 'starttls' ? tls : 'tls' })}
          options={(['tls', 'starttls', 'none'] as const).map((v) => ({ value: v, label: t(`admin.inboxes.tls.${v}`) }))}
        />
      </Field>
    </fieldset>
  );
}

export function NewInboxDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const navigate = useNavigate();
  const [channel, setChannel] = useState<'livechat' | 'email'>('livechat');
  const [name, setName] = useState('');
  const [from, setFrom] = useState('');
  const [imap, setImap] = useState(EMPTY_IMAP);
  const [smtp, setSmtp] = useState(EMPTY_SMTP);
  const create = useAdminMutation(
    () => {
      const server = (s: ServerForm) => ({
        host: s.host.trim(),
        port: Number(s.port),
        username: s.username.trim(),
        password: s.password,
        tls: s.tls,
        tls_skip_verify: false,
      });
      // The settings with a default, at their defaults (docs/api.md, Email inboxes): changed on the inbox's page.
      const imapDefaults = { mailbox: 'INBOX', poll_interval_seconds: 60, import_since_hours: 24 };
      const mailDefaults = { plus_addressing: false, reopen_window_days: 30, signature: '' };
      return unwrap(
        api.POST('/api/v1/inboxes', {
          body:
            channel === 'email'
              ? {
                  channel,
                  name: name.trim(),
                  enabled: true,
                  csat_enabled: false,
                  from: from.trim(),
                  config: { imap: { ...server(imap), ...imapDefaults }, smtp: server(smtp), ...mailDefaults },
                }
              : { channel, name: name.trim(), enabled: true, csat_enabled: false, config: newLivechatConfig(name.trim()) },
        }),
      );
    },
    { invalidate: [['inboxes']], done: (inbox) => t('admin.inboxes.created', { name: inbox.name }) },
  );
  // biome-ignore lint/correctness/useExhaustiveDependencies: a dialog opened again starts empty
  useEffect(() => {
    if (open) {
      setName('');
      setFrom('');
      setImap(EMPTY_IMAP);
      setSmtp(EMPTY_SMTP);
      create.reset();
    }
  }, [open]);
  const errors = formErrors(create.error);
  return (
    <FormDialog
      open={open}
      onOpenChange={(next) => (next ? null : onClose())}
      title={t('admin.inboxes.new')}
      submitLabel={t('admin.inboxes.create')}
      onSubmit={() =>
        create.mutate(undefined, {
          onSuccess: (inbox) => {
            onClose();
            const secret = inbox.channel === 'livechat' ? inbox.config.secret : undefined;
            navigate(`/admin/inboxes/${inbox.id}`, { state: secret && secret !== '••••••••••' ? { secret } : null });
          },
        })
      }
      pending={create.isPending}
      banner={errors.banner(['name', 'from', 'channel', 'config.imap', 'config.smtp'])}
      size="lg"
    >
      <div className="form-grid">
        <Field label={t('admin.inboxes.channel')}>
          <Select
            value={channel}
            onValueChange={(value) => setChannel(value === 'email' ? 'email' : 'livechat')}
            options={[
              { value: 'livechat', label: t('admin.inboxes.channel.livechat') },
              { value: 'email', label: t('admin.inboxes.channel.email') },
            ]}
          />
        </Field>
        <Field label={t('admin.field.name')} error={errors.field('name')}>
          <Input value={name} onChange={(e) => setName(e.target.value)} autoComplete="off" />
        </Field>
        {channel === 'email' ? (
          <div className="form-grid__full">
            <Field label={t('admin.inboxes.from')} hint={t('admin.inboxes.fromHint')} error={errors.field('from')}>
              <Input
                value={from}
                onChange={(e) => setFrom(e.target.value)}
                placeholder="Support <support@example.com>"
                autoComplete="off"
              />
            </Field>
          </div>
        ) : null}
      </div>
      {channel === 'email' ? (
        <>
          <ServerFields which="imap" value={imap} onChange={setImap} errors={errors} />
          <ServerFields which="smtp" value={smtp} onChange={setSmtp} errors={errors} />
        </>
      ) : (
        <p className="muted">{t('admin.inboxes.livechatNext')}</p>
      )}
    </FormDialog>
  );
}
