// One inbox's settings, in tabs over one draft: general fields, then the channel's (mail servers
// and the reader's status; or the live chat's appearance with a preview, behaviour, security and
// the snippet to install it). One Save sends the whole inbox.
import { ArrowLeft } from 'lucide-react';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Link, useLocation, useNavigate, useParams } from 'react-router';
import { api, unwrap } from '../../../api/client';
import { keys } from '../../../api/keys';
import { t } from '../../../i18n/t';
import { Badge } from '../../../ui/Badge';
import { Button } from '../../../ui/Button';
import { CopyField } from '../../../ui/CopyField';
import { EmptyState } from '../../../ui/EmptyState';
import { formErrors } from '../../../ui/formErrors';
import { ErrorBanner, Page } from '../../../ui/Page';
import { Loading } from '../../../ui/Spinner';
import { type TabItem, Tabs } from '../../../ui/Tabs';
import { useAdminMutation } from '../crud';
import { type Draft, draftOf, type EmailConfig, type Inbox, type LivechatConfig, useDraft } from './draft';
import { EmailServers } from './EmailServers';
import { EmailStatus } from './EmailStatus';
import { GeneralTab } from './GeneralTab';
import { LivechatAppearance } from './LivechatAppearance';
import { LivechatBehaviour } from './LivechatBehaviour';
import { LivechatInstall, LivechatSecurity } from './LivechatSecurity';
import './inboxes.css';

/** The tab holding a field the API named in a 400, to show it. */
function tabOf(field: string): string {
  if (/^config\.(imap|smtp|plus_addressing|reopen_window_days|signature)/.test(field)) return 'servers';
  if (/^config\.(trusted_domains|blocked_ips|session_duration|secret)/.test(field)) return 'security';
  if (/^config\.(business_hours_id|timezone|show_office|away_message|users|visitors|prechat_form|file_upload|direct_to)/.test(field))
    return 'behaviour';
  if (field.startsWith('config.')) return 'appearance';
  return 'general';
}

function secretIn(state: unknown): string | undefined {
  return typeof state === 'object' && state !== null && 'secret' in state && typeof state.secret === 'string' ? state.secret : undefined;
}

function Editor({ inbox }: { inbox: Inbox }) {
  const [base, setBase] = useState(inbox);
  const { draft, dirty, change, reset } = useDraft(draftOf(inbox));
  const [tab, setTab] = useState('general');
  const location = useLocation();
  const navigate = useNavigate();
  // A live chat's JWT secret is shown once, in the creation answer: the list passes it here in the
  // history state, which is cleared at once so that going back or reloading does not show it again.
  const [createdSecret] = useState(() => secretIn(location.state));
  // biome-ignore lint/correctness/useExhaustiveDependencies: once, on arrival
  useEffect(() => {
    if (createdSecret !== undefined) navigate(location.pathname, { replace: true, state: null });
  }, []);
  const save = useAdminMutation(
    (value: Draft) =>
      unwrap(
        api.PUT('/api/v1/inboxes/{id}', {
          params: { path: { id: inbox.id } },
          body: {
            name: value.name.trim(),
            enabled: value.enabled,
            csat_enabled: value.csat_enabled,
            default_team_id: value.default_team_id,
            assign_on_first_reply: value.assign_on_first_reply,
            from: value.from.trim() || null,
            config: value.config,
          },
        }),
      ),
    { invalidate: [['inboxes']], done: t('admin.inboxes.saved') },
  );
  useEffect(() => {
    const field = formErrors(save.error).firstField();
    if (field) setTab(tabOf(field));
  }, [save.error]);
  const errors = formErrors(save.error);
  const submit = () =>
    save.mutate(draft, {
      onSuccess: (saved) => {
        setBase(saved);
        reset(draftOf(saved));
      },
    });

  const items: TabItem[] = [
    { value: 'general', label: t('admin.inboxes.tab.general'), content: <GeneralTab draft={draft} change={change} errors={errors} /> },
  ];
  if (draft.channel === 'email') {
    const edit = (fn: (config: EmailConfig) => void) =>
      change((d) => {
        if (d.channel === 'email') fn(d.config);
      });
    items.push(
      {
        value: 'servers',
        label: t('admin.inboxes.tab.servers'),
        content: <EmailServers inboxId={inbox.id} config={draft.config} edit={edit} errors={errors} />,
      },
      { value: 'status', label: t('admin.inboxes.tab.status'), content: <EmailStatus inboxId={inbox.id} /> },
    );
  } else {
    const edit = (fn: (config: LivechatConfig) => void) =>
      change((d) => {
        if (d.channel === 'livechat') fn(d.config);
      });
    items.push(
      {
        value: 'appearance',
        label: t('admin.inboxes.tab.appearance'),
        content: <LivechatAppearance inboxId={inbox.id} config={draft.config} edit={edit} errors={errors} />,
      },
      {
        value: 'behaviour',
        label: t('admin.inboxes.tab.behaviour'),
        content: <LivechatBehaviour config={draft.config} edit={edit} errors={errors} />,
      },
      {
        value: 'security',
        label: t('admin.inboxes.tab.security'),
        content: <LivechatSecurity inboxId={inbox.id} config={draft.config} edit={edit} errors={errors} />,
      },
      {
        value: 'install',
        label: t('admin.inboxes.tab.install'),
        content: <LivechatInstall uuid={inbox.uuid} inboxId={inbox.id} trusted={draft.config.trusted_domains} />,
      },
    );
  }

  return (
    <Page
      title={base.name}
      back={
        <Link to="/admin/inboxes">
          <ArrowLeft size={16} aria-hidden /> {t('admin.inboxes.title')}
        </Link>
      }
      description={
        <span className="chips">
          <Badge tone="accent">{t(`admin.inboxes.channel.${base.channel}`)}</Badge>
          {base.enabled ? <Badge tone="success">{t('admin.enabled')}</Badge> : <Badge>{t('admin.disabled')}</Badge>}
        </span>
      }
      actions={
        <Button variant="primary" onClick={submit} loading={save.isPending} disabled={!dirty}>
          {t('admin.inboxes.save')}
        </Button>
      }
    >
      {createdSecret ? (
        <div className="form-stack">
          <p className="notice">{t('admin.inboxes.createdSecret')}</p>
          <CopyField label={t('admin.inboxes.secret')} value={createdSecret} />
        </div>
      ) : null}
      <ErrorBanner message={save.error ? save.error.message : null} />
      <form
        onSubmit={(event) => {
          event.preventDefault();
          submit();
        }}
        noValidate
      >
        <Tabs label={t('admin.inboxes.sections')} items={items} value={tab} onValueChange={setTab} />
        {dirty ? (
          <div className="save-bar">
            <span>{t('admin.inboxes.unsaved')}</span>
            <Button onClick={() => reset(draftOf(base))}>{t('admin.inboxes.discard')}</Button>
            <Button type="submit" variant="primary" loading={save.isPending}>
              {t('admin.inboxes.save')}
            </Button>
          </div>
        ) : null}
      </form>
    </Page>
  );
}

export function InboxPage() {
  const id = Number(useParams().id);
  const inbox = useQuery({
    queryKey: keys.admin.inbox(id),
    queryFn: () => unwrap(api.GET('/api/v1/inboxes/{id}', { params: { path: { id } } })),
  });
  if (inbox.isPending) return <Loading />;
  if (inbox.isError)
    return (
      <Page
        title={t('admin.inboxes.notFound')}
        back={
          <Link to="/admin/inboxes">
            <ArrowLeft size={16} aria-hidden /> {t('admin.inboxes.title')}
          </Link>
        }
      >
        <EmptyState title={t('admin.inboxes.notFound')} hint={inbox.error.message} />
      </Page>
    );
  return <Editor key={inbox.data.id} inbox={inbox.data} />;
}
