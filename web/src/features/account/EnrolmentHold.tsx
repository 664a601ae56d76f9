// The app while a role requires two-factor sign-in that the agent has not set up
// (`mfa_setup_required`): only the enrolment, and signing out. The server refuses everything else.
import { t } from '../../i18n/t';
import { Button } from '../../ui/Button';
import { Card } from '../../ui/Page';
import { useLogout } from '../auth/session';
import { TwoFactorEnrolment } from './TwoFactorEnrolment';
import './two-factor.css';

export function EnrolmentHold({ onEnabled, onDone }: { onEnabled: () => void; onDone: () => void }) {
  const logout = useLogout();
  return (
    <main className="two-factor-hold">
      <Card
        title={t('account.2fa.holdTitle')}
        id="two-factor-hold"
        actions={<Button onClick={() => logout.mutate()}>{t('me.logout')}</Button>}
      >
        <div className="form-stack">
          <p className="cell-muted">{t('account.2fa.holdIntro')}</p>
          <TwoFactorEnrolment onEnabled={onEnabled} onDone={onDone} />
        </div>
      </Card>
    </main>
  );
}
