// The account page's notification preferences: for each type, in the app / by email / by push (a
// table of checkboxes); one mail each or a digest; the chime and the count in the tab's title.
// Edited as a draft and saved with one PUT (docs/api.md, "Notification API and preferences").
// Push needs a subscription of this browser as well, which has its own section.
import { useState } from 'react';
import { t } from '../../i18n/t';
import { Button } from '../../ui/Button';
import { Card, ErrorBanner } from '../../ui/Page';
import { QueryState } from '../../ui/QueryState';
import { Switch } from '../../ui/Switch';
import { toast } from '../../ui/Toast';
import './notifications.css';
import { type NotificationSettings, useNotificationSettings, useSaveNotificationSettings } from './queries';

const CHANNELS = ['in_app', 'email', 'push'] as const;
type NotificationType = keyof NotificationSettings['types'];

export function NotificationsSection() {
  const settings = useNotificationSettings();
  return (
    <Card title={t('notifications.settings.title')} id="account-notifications">
      <p className="muted">{t('notifications.settings.hint')}</p>
      <QueryState query={settings}>{(saved) => <SettingsForm key={JSON.stringify(saved)} saved={saved} />}</QueryState>
    </Card>
  );
}

function SettingsForm({ saved }: { saved: NotificationSettings }) {
  const [draft, setDraft] = useState<NotificationSettings>(saved);
  const save = useSaveNotificationSettings();
  const types = Object.keys(draft.types) as NotificationType[];
  const setChoice = (type: NotificationType, channel: (typeof CHANNELS)[number], on: boolean) =>
    setDraft((d) => ({ ...d, types: { ...d.types, [type]: { ...d.types[type], [channel]: on } } }));
  const changed = JSON.stringify(draft) !== JSON.stringify(saved);

  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        save.mutate(draft, { onSuccess: () => toast(t('notifications.settings.saved')) });
      }}
    >
      <table className="notification-settings">
        <caption className="visually-hidden">{t('notifications.settings.table')}</caption>
        <thead>
          <tr>
            <th scope="col">{t('notifications.settings.type')}</th>
            {CHANNELS.map((channel) => (
              <th scope="col" key={channel}>
                {t(`notifications.settings.channel.${channel}`)}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {types.map((type) => (
            <tr key={type}>
              <th scope="row">{t(`notifications.type.${type}`)}</th>
              {CHANNELS.map((channel) => (
                <td key={channel}>
                  <input
                    type="checkbox"
                    checked={draft.types[type][channel]}
                    onChange={(event) => setChoice(type, channel, event.target.checked)}
                    aria-label={t('notifications.settings.cell', {
                      type: t(`notifications.type.${type}`),
                      channel: t(`notifications.settings.channel.${channel}`),
                    })}
                  />
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
      <div className="notification-settings__options">
        <fieldset className="notification-settings__digest">
          <legend>{t('notifications.settings.digest')}</legend>
          {(['each', 'digest'] as const).map((choice) => (
            <label key={choice}>
              <input
                type="radio"
                name="email_digest"
                checked={draft.email_digest === (choice === 'digest')}
                onChange={() => setDraft((d) => ({ ...d, email_digest: choice === 'digest' }))}
              />{' '}
              {t(`notifications.settings.digest.${choice}`)}
            </label>
          ))}
        </fieldset>
        <Switch
          checked={draft.sound}
          onCheckedChange={(sound) => setDraft((d) => ({ ...d, sound }))}
          label={t('notifications.settings.sound')}
        />
        <Switch
          checked={draft.title_count}
          onCheckedChange={(title_count) => setDraft((d) => ({ ...d, title_count }))}
          label={t('notifications.settings.titleCount')}
        />
        <ErrorBanner message={save.error?.message} />
        <div>
          <Button type="submit" variant="primary" disabled={!changed} loading={save.isPending}>
            {t('notifications.settings.save')}
          </Button>
        </div>
      </div>
    </form>
  );
}
