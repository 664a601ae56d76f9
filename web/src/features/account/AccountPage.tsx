// The signed-in agent's account settings: one card per concern, each in its own file.
import { t } from '../../i18n/t';
import { Page } from '../../ui/Page';
import { NotificationsSection } from '../notifications/NotificationsSection';
import { PushSection } from '../notifications-push/PushSection';
import { PasswordSection } from './PasswordSection';
import { SessionsSection } from './SessionsSection';
import { TwoFactorSection } from './TwoFactorSection';

export function AccountPage() {
  return (
    <Page title={t('account.title')} description={t('account.description')} width="narrow">
      <PasswordSection />
      <TwoFactorSection />
      <SessionsSection />
      <NotificationsSection />
      <PushSection />
    </Page>
  );
}
