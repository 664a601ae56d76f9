// An email inbox's mail servers (IMAP to read, SMTP to send) and mail handling. Passwords come back
// masked: left as they are, the stored ones are kept (unless the server's address changes).
import { t } from '../../../i18n/t';
import { Field } from '../../../ui/Field';
import { Input, Textarea } from '../../../ui/Input';
import { Select } from '../../../ui/Select';
import { Switch } from '../../../ui/Switch';
import { Card } from '../../../ui/Page';
import type { EmailConfig, TabProps } from './draft';
import { EmailTest } from './EmailTest';

type Tls = EmailConfig['imap']['tls'];
const TLS: readonly Tls[] = ['tls', 'starttls', 'none'];

function Server({ which, props }: { which: 'imap' | 'smtp'; props: TabProps<EmailConfig> }) {
  const { config, edit, errors } = props;
  const server = config[which];
  const path = `config.${which}`;
  return (
    <Card title={t(`admin.inboxes.${which}`)}>
      <div className="form-grid">
        <Field label={t('admin.inboxes.host')} error={errors.field(`${path}.host`)}>
          <Input
            value={server.host}
            onChange={(e) =>
              edit((c) => {
                c[which].host = e.target.value;
              })
            }
            autoComplete="off"
            spellCheck={false}
          />
        </Field>
        <Field label={t('admin.inboxes.port')} error={errors.field(`${path}.port`)}>
          <Input
            type="number"
            inputMode="numeric"
            value={String(server.port)}
            onChange={(e) =>
              edit((c) => {
                c[which].port = Number(e.target.value);
              })
            }
          />
        </Field>
        <Field label={t('admin.inboxes.username')} error={errors.field(`${path}.username`)}>
          <Input
            value={server.username}
            onChange={(e) =>
              edit((c) => {
                c[which].username = e.target.value;
              })
            }
            autoComplete="off"
            spellCheck={false}
          />
        </Field>
        <Field label={t('admin.inboxes.password')} hint={t('admin.inboxes.passwordHint')} error={errors.field(`${path}.password`)}>
          <Input
            type="password"
            value={server.password}
            onChange={(e) =>
              edit((c) => {
                c[which].password = e.target.value;
              })
            }
            autoComplete="new-password"
          />
        </Field>
        <Field label={t('admin.inboxes.tls')} error={errors.field(`${path}.tls`)}>
          <Select
            value={server.tls}
            onValueChange={(value) =>
              edit((c) => {
                c[which].tls = TLS.find((v) => v === value) ?? 'tls';
              })
            }
            options={TLS.map((value) => ({ value, label: t(`admin.inboxes.tls.${value}`) }))}
          />
        </Field>
        {which === 'imap' ? (
          <Field label={t('admin.inboxes.mailbox')} error={errors.field('config.imap.mailbox')}>
            <Input
              value={config.imap.mailbox}
              onChange={(e) =>
                edit((c) => {
                  c.imap.mailbox = e.target.value;
                })
              }
              autoComplete="off"
            />
          </Field>
        ) : (
          <span />
        )}
        {which === 'imap' ? (
          <>
            <Field
              label={t('admin.inboxes.pollInterval')}
              hint={t('admin.inboxes.pollIntervalHint')}
              error={errors.field('config.imap.poll_interval_seconds')}
            >
              <Input
                type="number"
                inputMode="numeric"
                value={String(config.imap.poll_interval_seconds)}
                onChange={(e) =>
                  edit((c) => {
                    c.imap.poll_interval_seconds = Number(e.target.value);
                  })
                }
              />
            </Field>
            <Field
              label={t('admin.inboxes.importSince')}
              hint={t('admin.inboxes.importSinceHint')}
              error={errors.field('config.imap.import_since_hours')}
            >
              <Input
                type="number"
                inputMode="numeric"
                value={String(config.imap.import_since_hours)}
                onChange={(e) =>
                  edit((c) => {
                    c.imap.import_since_hours = Number(e.target.value);
                  })
                }
              />
            </Field>
          </>
        ) : null}
      </div>
      <div className="form-stack tls-skip">
        <Switch
          checked={server.tls_skip_verify}
          onCheckedChange={(value) =>
            edit((c) => {
              c[which].tls_skip_verify = value;
            })
          }
          label={t('admin.inboxes.skipVerify')}
          hint={t('admin.inboxes.skipVerifyHint')}
        />
      </div>
    </Card>
  );
}

export function EmailServers({ inboxId, ...props }: TabProps<EmailConfig> & { inboxId: number }) {
  const { config, edit, errors } = props;
  return (
    <div className="form-stack">
      <Server which="imap" props={props} />
      <Server which="smtp" props={props} />
      <EmailTest inboxId={inboxId} config={config} />
      <Card title={t('admin.inboxes.mailHandling')}>
        <div className="form-stack">
          <Switch
            checked={config.plus_addressing}
            onCheckedChange={(value) =>
              edit((c) => {
                c.plus_addressing = value;
              })
            }
            label={t('admin.inboxes.plusAddressing')}
            hint={t('admin.inboxes.plusAddressingHint')}
          />
          <Field
            label={t('admin.inboxes.reopenWindow')}
            hint={t('admin.inboxes.reopenWindowHint')}
            error={errors.field('config.reopen_window_days')}
          >
            <Input
              type="number"
              inputMode="numeric"
              value={String(config.reopen_window_days)}
              onChange={(e) =>
                edit((c) => {
                  c.reopen_window_days = Number(e.target.value);
                })
              }
            />
          </Field>
          <Field label={t('admin.inboxes.signature')} hint={t('admin.inboxes.signatureHint')} error={errors.field('config.signature')}>
            <Textarea
              value={config.signature}
              onChange={(e) =>
                edit((c) => {
                  c.signature = e.target.value;
                })
              }
              rows={4}
            />
          </Field>
        </div>
      </Card>
    </div>
  );
}
