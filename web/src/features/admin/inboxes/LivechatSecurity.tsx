// Who may embed and reach the live chat (trusted sites, blocked addresses), how long a verified
// contact's session lasts, the JWT secret (rotated, shown once, optionally ending every chat
// session of the inbox with it), and the snippet to install it.
import { useState } from 'react';
import { api, unwrap } from '../../../api/client';
import { t } from '../../../i18n/t';
import { Button } from '../../../ui/Button';
import { ConfirmDialog } from '../../../ui/ConfirmDialog';
import { CopyField } from '../../../ui/CopyField';
import { Field } from '../../../ui/Field';
import { Input } from '../../../ui/Input';
import { Card } from '../../../ui/Page';
import { Switch } from '../../../ui/Switch';
import { useAdminMutation } from '../crud';
import { ListInput } from '../fields';
import type { LivechatConfig, TabProps } from './draft';
import { OriginCheck } from './OriginCheck';

function SecretRotation({ inboxId }: { inboxId: number }) {
  const [secret, setSecret] = useState<string | null>(null);
  const [ended, setEnded] = useState<number | null>(null);
  const [endSessions, setEndSessions] = useState(false);
  const [confirm, setConfirm] = useState(false);
  const rotate = useAdminMutation(
    (end: boolean) =>
      unwrap(api.POST('/api/v1/inboxes/{id}/secret/rotate', { params: { path: { id: inboxId } }, body: { end_sessions: end } })),
    { invalidate: [], done: t('admin.inboxes.secretRotated') },
  );
  return (
    <Card title={t('admin.inboxes.secret')}>
      <div className="form-stack">
        <p className="muted">{t('admin.inboxes.secretHint')}</p>
        {secret ? (
          <>
            <p className="notice">{t('admin.secretOnce')}</p>
            <CopyField label={t('admin.inboxes.secret')} value={secret} />
            {ended !== null ? <output className="notice">{t('admin.inboxes.sessionsEnded', { n: ended })}</output> : null}
          </>
        ) : null}
        <Switch
          checked={endSessions}
          onCheckedChange={setEndSessions}
          label={t('admin.inboxes.endSessions')}
          hint={t('admin.inboxes.endSessionsHint')}
        />
        <div>
          <Button onClick={() => setConfirm(true)}>{t('admin.inboxes.rotate')}</Button>
        </div>
      </div>
      <ConfirmDialog
        open={confirm}
        onOpenChange={setConfirm}
        title={t('admin.inboxes.rotate')}
        message={t(endSessions ? 'admin.inboxes.rotateEndConfirm' : 'admin.inboxes.rotateConfirm')}
        confirmLabel={t('admin.inboxes.rotate')}
        onConfirm={async () => {
          const result = await rotate.mutateAsync(endSessions);
          setSecret(result.secret);
          setEnded(endSessions ? result.sessions_ended : null);
        }}
      />
    </Card>
  );
}

export function LivechatSecurity({ inboxId, ...props }: TabProps<LivechatConfig> & { inboxId: number }) {
  const { config, edit, errors } = props;
  return (
    <div className="form-stack">
      <Card title={t('admin.inboxes.access')}>
        <div className="form-grid">
          <Field
            label={t('admin.inboxes.trustedDomains')}
            hint={t('admin.inboxes.trustedDomainsHint')}
            error={errors.field('config.trusted_domains')}
          >
            <ListInput
              value={config.trusted_domains}
              onChange={(v) =>
                edit((c) => {
                  c.trusted_domains = v;
                })
              }
              placeholder={'example.com\n*.example.com'}
            />
          </Field>
          <Field label={t('admin.inboxes.blockedIps')} hint={t('admin.inboxes.blockedIpsHint')} error={errors.field('config.blocked_ips')}>
            <ListInput
              value={config.blocked_ips}
              onChange={(v) =>
                edit((c) => {
                  c.blocked_ips = v;
                })
              }
              placeholder={'203.0.113.7\n198.51.100.0/24'}
            />
          </Field>
          <Field
            label={t('admin.inboxes.sessionDuration')}
            hint={t('admin.inboxes.sessionDurationHint')}
            error={errors.field('config.session_duration')}
          >
            <Input
              value={config.session_duration}
              onChange={(e) =>
                edit((c) => {
                  c.session_duration = e.target.value.trim();
                })
              }
              maxLength={7}
            />
          </Field>
        </div>
      </Card>
      <SecretRotation inboxId={inboxId} />
    </div>
  );
}

/** The one line a site adds before </body> to show the chat. */
export function embedSnippet(origin: string, uuid: string): string {
  return `<script src="${origin}/widget.js" data-inbox="${uuid}" async></script>`;
}

export function LivechatInstall({ uuid, inboxId, trusted }: { uuid: string; inboxId: number; trusted: string[] }) {
  return (
    <div className="form-stack">
      <Card title={t('admin.inboxes.install')}>
        <div className="form-stack">
          <p>{t('admin.inboxes.installHint')}</p>
          <CopyField label={t('admin.inboxes.snippet')} value={embedSnippet(window.location.origin, uuid)} multiline />
          <p className="muted">{t('admin.inboxes.installTrusted')}</p>
          <CopyField label={t('admin.inboxes.uuid')} value={uuid} />
        </div>
      </Card>
      <Card title={t('admin.inboxes.checkSite')}>
        <OriginCheck inboxId={inboxId} trusted={trusted} />
      </Card>
    </div>
  );
}
