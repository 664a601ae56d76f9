import { useNavigate } from 'react-router';
import { t } from '../../i18n/t';
import { Avatar } from '../../ui/Avatar';
import { Button } from '../../ui/Button';
import { DropdownMenu, type MenuEntry } from '../../ui/DropdownMenu';
import { toast } from '../../ui/Toast';
import { type Availability, displayName, useAgent, useLogout, useSetAvailability } from './session';

export const AVAILABILITIES: readonly Availability[] = ['available', 'busy', 'away'];

export function AccountMenu() {
  const navigate = useNavigate();
  const agent = useAgent();
  const setAvailability = useSetAvailability();
  const logout = useLogout();
  const name = displayName(agent);
  const entries: MenuEntry[] = [
    { kind: 'label', label: t('me.availability') },
    ...AVAILABILITIES.map((status) => ({
      label: t(`availability.${status}`),
      checked: agent.availability_status === status,
      onSelect: () => setAvailability.mutate({ status, source: 'user' }, { onError: (error) => toast(error.message, 'error') }),
    })),
    { kind: 'separator' },
    { label: t('me.account'), onSelect: () => void navigate('/account') },
    { label: t('me.logout'), onSelect: () => logout.mutate() },
  ];
  return (
    <DropdownMenu
      align="end"
      entries={entries}
      trigger={
        <Button variant="ghost" className="account" title={t('me.menu', { name })}>
          <Avatar name={name} src={agent.avatar_url} size="sm" status={agent.availability_status} />
          <span className="account__name">{name}</span>
          <span className="account__status">{t(`availability.${agent.availability_status}`)}</span>
        </Button>
      }
    />
  );
}
