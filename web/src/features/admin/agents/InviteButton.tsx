// Invitations in the agents screen: "Send invitation again" on an agent's row, and the notice
// shown when the server cannot mail agents (SMTP_URL or MAIL_FROM unset).
import { type Agent, api, unwrap } from '../../../api/client';
import { t } from '../../../i18n/t';
import { Button } from '../../../ui/Button';
import { toast } from '../../../ui/Toast';
import { displayName } from '../../auth/session';
import { useSystemMailStatus } from '../../auth/passwords';
import { useAdminMutation } from '../crud';

export function InviteButton({ agent }: { agent: Agent }) {
  const mail = useSystemMailStatus();
  const invite = useAdminMutation(() => unwrap(api.POST('/api/v1/agents/{id}/invite', { params: { path: { id: agent.id } } })), {
    invalidate: [],
    done: t('admin.agents.invitationSent', { email: agent.email ?? '' }),
  });
  // Offered until the agent has signed in: one who has chose a password, and resets it themselves.
  if (!mail.data?.configured || !agent.enabled || agent.last_login_at !== null) return null;
  return (
    <Button
      size="sm"
      variant="ghost"
      loading={invite.isPending}
      onClick={() => invite.mutate(undefined, { onError: (error) => toast(error.message, 'error') })}
      aria-label={t('admin.agents.inviteNamed', { name: displayName(agent) })}
    >
      {t('admin.agents.invite')}
    </Button>
  );
}

export function MailNotConfiguredNotice() {
  const mail = useSystemMailStatus();
  if (!mail.data || mail.data.configured) return null;
  return (
    <p className="notice" role="note">
      {t('admin.agents.mailNotConfigured', { missing: mail.data.missing.join(', ') })}
    </p>
  );
}
