// "Push notifications on this device" in the account settings: turning Web Push on for this
// browser (permission, service worker, subscription recorded on the server) or off, and the
// agent's devices that receive pushes, each removable (docs/api.md, "Web Push").
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, type Schemas, unwrap } from '../../api/client';
import { t } from '../../i18n/t';
import { Badge } from '../../ui/Badge';
import { Button } from '../../ui/Button';
import { Card, ErrorBanner } from '../../ui/Page';
import { QueryState } from '../../ui/QueryState';
import { toast } from '../../ui/Toast';
import { ago } from '../inbox/format';
import { notificationKeys } from '../notifications/queries';
import {
  currentEndpointDigest,
  enablePush,
  forgetThisBrowser,
  pushSupported,
  turnOnPushDefaults,
  unsubscribeThisBrowser,
} from './browser-push';
import './push.css';

type Subscription = Schemas['PushSubscription'];

const subscriptionsKey = ['push', 'subscriptions'] as const;
const thisBrowserKey = ['push', 'this-browser'] as const;

function deviceName(subscription: Subscription): string {
  const { browser, os } = subscription.device;
  if (browser && os) return t('account.push.device', { browser, os });
  return browser ?? os ?? t('account.push.unknownDevice');
}

export function PushSection() {
  const client = useQueryClient();
  const supported = pushSupported();
  const subscriptions = useQuery({
    queryKey: subscriptionsKey,
    queryFn: () => unwrap(api.GET('/api/v1/agents/me/push-subscriptions')),
  });
  const thisBrowser = useQuery({ queryKey: thisBrowserKey, queryFn: currentEndpointDigest, enabled: supported });
  const refresh = () =>
    Promise.all([client.invalidateQueries({ queryKey: subscriptionsKey }), client.invalidateQueries({ queryKey: thisBrowserKey })]);
  const mine = subscriptions.data?.find((s) => thisBrowser.data && s.endpoint_sha256 === thisBrowser.data);

  const enable = useMutation({
    mutationFn: async () => {
      if (!(await enablePush())) return false;
      // Push is off for every type by default: a device turned on gets the usual ones.
      if (await turnOnPushDefaults()) await client.invalidateQueries({ queryKey: notificationKeys.settings });
      return true;
    },
    onSuccess: (granted) => toast(granted ? t('account.push.enabled') : t('account.push.notGranted')),
    onSettled: refresh,
  });
  const disable = useMutation({
    mutationFn: forgetThisBrowser,
    onSuccess: () => toast(t('account.push.disabled')),
    onSettled: refresh,
  });
  const remove = useMutation({
    mutationFn: async (subscription: Subscription) => {
      if (subscription.endpoint_sha256 === thisBrowser.data) await unsubscribeThisBrowser();
      await unwrap(api.DELETE('/api/v1/agents/me/push-subscriptions/{id}', { params: { path: { id: subscription.id } } }));
    },
    onSuccess: (_done, subscription) => toast(t('account.push.removed', { device: deviceName(subscription) })),
    onSettled: refresh,
  });

  const denied = supported && Notification.permission === 'denied';
  return (
    <Card
      title={t('account.push.title')}
      id="account-push"
      actions={
        !supported || denied ? null : mine ? (
          <Button size="sm" variant="secondary" loading={disable.isPending} onClick={() => disable.mutate()}>
            {t('account.push.disable')}
          </Button>
        ) : (
          <Button size="sm" loading={enable.isPending} onClick={() => enable.mutate()}>
            {t('account.push.enable')}
          </Button>
        )
      }
    >
      <p className="muted">{t('account.push.hint')}</p>
      {!supported ? <output className="push-state">{t('account.push.unsupported')}</output> : null}
      {denied ? <output className="push-state">{t('account.push.denied')}</output> : null}
      {supported && !denied ? <output className="push-state">{mine ? t('account.push.on') : t('account.push.off')}</output> : null}
      <QueryState query={subscriptions}>
        {(list) =>
          list.length === 0 ? (
            <p className="muted">{t('account.push.noDevices')}</p>
          ) : (
            <ul className="push-devices" aria-label={t('account.push.devices')}>
              {list.map((subscription) => {
                const device = deviceName(subscription);
                return (
                  <li key={subscription.id} className="push-devices__item">
                    <div>
                      <div className="push-devices__name">
                        <span>{device}</span>
                        {subscription.id === mine?.id ? <Badge tone="success">{t('account.push.thisDevice')}</Badge> : null}
                      </div>
                      <div className="push-devices__meta">
                        {[
                          subscription.endpoint_host,
                          subscription.last_success_at
                            ? t('account.push.lastSuccess', { when: ago(subscription.last_success_at) })
                            : t('account.push.neverPushed', { when: ago(subscription.created_at) }),
                        ].join(' · ')}
                      </div>
                    </div>
                    <Button
                      size="sm"
                      variant="ghost"
                      className="danger-text"
                      aria-label={t('account.push.removeNamed', { device })}
                      loading={remove.isPending && remove.variables?.id === subscription.id}
                      onClick={() => remove.mutate(subscription)}
                    >
                      {t('account.push.remove')}
                    </Button>
                  </li>
                );
              })}
            </ul>
          )
        }
      </QueryState>
      <ErrorBanner message={enable.error?.message ?? disable.error?.message ?? remove.error?.message} />
    </Card>
  );
}
