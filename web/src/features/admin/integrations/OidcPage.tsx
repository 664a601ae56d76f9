// Single sign-on: OpenID Connect providers agents may sign in with. The client secret is never
// shown again once saved; "Test" runs the provider's discovery now and shows what Parley found.
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { api, type Schemas, unwrap } from '../../../api/client';
import { keys } from '../../../api/keys';
import { t } from '../../../i18n/t';
import { Badge } from '../../../ui/Badge';
import { Button } from '../../../ui/Button';
import { CopyField } from '../../../ui/CopyField';
import { Dialog } from '../../../ui/Dialog';
import { Field } from '../../../ui/Field';
import { formErrors } from '../../../ui/formErrors';
import { Input } from '../../../ui/Input';
import { Switch } from '../../../ui/Switch';
import { toast } from '../../../ui/Toast';
import { FormDialog, useAdminMutation } from '../crud';
import { AdminListPage } from '../AdminListPage';
import { OptionalSelect, useRoles } from '../fields';
import { useOnOpen } from '../../../ui/useOnOpen';

type Provider = Schemas['OidcProvider'];
type Report = Schemas['OidcDiscoveryReport'];
const MASK = '••••••••••';

interface ProviderForm {
  name: string;
  provider: string;
  provider_url: string;
  client_id: string;
  client_secret: string;
  logo_url: string;
  enabled: boolean;
  auto_provision: boolean;
  provision_role_id: number | null;
}

function initial(p: Provider | null): ProviderForm {
  return {
    name: p?.name ?? '',
    provider: p?.provider ?? 'Custom',
    provider_url: p?.provider_url ?? '',
    client_id: p?.client_id ?? '',
    client_secret: '',
    logo_url: p?.logo_url ?? '',
    enabled: p?.enabled ?? true,
    auto_provision: p?.auto_provision ?? false,
    provision_role_id: p?.provision_role_id ?? null,
  };
}

function ProviderDialog({ provider, open, onClose }: { provider: Provider | null; open: boolean; onClose: () => void }) {
  const roles = useRoles();
  const [form, setForm] = useState<ProviderForm>(() => initial(provider));
  const save = useAdminMutation(
    (value: ProviderForm) => {
      const body = {
        name: value.name.trim(),
        provider: value.provider.trim() || 'Custom',
        provider_url: value.provider_url.trim(),
        client_id: value.client_id.trim(),
        // Left empty on an update: the mask, which keeps the stored secret.
        client_secret: value.client_secret || (provider ? MASK : ''),
        logo_url: value.logo_url.trim(),
        enabled: value.enabled,
        auto_provision: value.auto_provision,
        provision_role_id: value.provision_role_id,
      };
      return provider
        ? unwrap(api.PUT('/api/v1/oidc/{id}', { params: { path: { id: provider.id } }, body }))
        : unwrap(api.POST('/api/v1/oidc', { body }));
    },
    { invalidate: [['oidc']], done: (saved) => t('admin.sso.saved', { name: saved.name }) },
  );
  useOnOpen(open, provider, () => {
    setForm(initial(provider));
    save.reset();
  });
  const errors = formErrors(save.error);
  const set = <K extends keyof ProviderForm>(name: K, value: ProviderForm[K]) => setForm((current) => ({ ...current, [name]: value }));
  return (
    <FormDialog
      open={open}
      onOpenChange={(next) => (next ? null : onClose())}
      title={provider ? t('admin.sso.edit') : t('admin.sso.new')}
      onSubmit={() => save.mutate(form, { onSuccess: onClose })}
      pending={save.isPending}
      banner={errors.banner(['name', 'provider', 'provider_url', 'client_id', 'client_secret', 'logo_url', 'provision_role_id'])}
      size="lg"
    >
      <div className="form-grid">
        <Field label={t('admin.field.name')} hint={t('admin.sso.nameHint')} error={errors.field('name')}>
          <Input value={form.name} onChange={(e) => set('name', e.target.value)} maxLength={100} autoComplete="off" />
        </Field>
        <Field label={t('admin.sso.provider')} hint={t('admin.sso.providerHint')} error={errors.field('provider')}>
          <Input value={form.provider} onChange={(e) => set('provider', e.target.value)} maxLength={50} autoComplete="off" />
        </Field>
        <div className="form-grid__full">
          <Field label={t('admin.sso.issuer')} hint={t('admin.sso.issuerHint')} error={errors.field('provider_url')}>
            <Input
              type="url"
              value={form.provider_url}
              onChange={(e) => set('provider_url', e.target.value)}
              placeholder="https://"
              spellCheck={false}
              autoComplete="off"
            />
          </Field>
        </div>
        <Field label={t('admin.sso.clientId')} error={errors.field('client_id')}>
          <Input value={form.client_id} onChange={(e) => set('client_id', e.target.value)} spellCheck={false} autoComplete="off" />
        </Field>
        <Field
          label={t('admin.sso.clientSecret')}
          hint={provider ? t('admin.sso.secretKeep') : undefined}
          error={errors.field('client_secret')}
        >
          <Input
            type="password"
            value={form.client_secret}
            onChange={(e) => set('client_secret', e.target.value)}
            autoComplete="new-password"
          />
        </Field>
        <div className="form-grid__full">
          <Field label={t('admin.sso.logo')} hint={t('admin.inboxes.urlHint')} error={errors.field('logo_url')}>
            <Input
              type="url"
              value={form.logo_url}
              onChange={(e) => set('logo_url', e.target.value)}
              placeholder="https://"
              autoComplete="off"
            />
          </Field>
        </div>
      </div>
      <Switch checked={form.enabled} onCheckedChange={(v) => set('enabled', v)} label={t('admin.sso.enabled')} />
      <Switch
        checked={form.auto_provision}
        onCheckedChange={(v) => set('auto_provision', v)}
        label={t('admin.sso.autoProvision')}
        hint={t('admin.sso.autoProvisionHint')}
      />
      {form.auto_provision ? (
        <Field label={t('admin.sso.role')} error={errors.field('provision_role_id')}>
          <OptionalSelect value={form.provision_role_id} onChange={(v) => set('provision_role_id', v)} options={roles.data ?? []} />
        </Field>
      ) : null}
      {provider ? <Configurer provider={provider} /> : null}
      {provider ? (
        <CopyField label={t('admin.sso.redirectUri')} value={provider.redirect_uri} />
      ) : (
        <p className="cell-muted">{t('admin.sso.redirectLater')}</p>
      )}
      <p className="notice">{t('admin.sso.warning')}</p>
    </FormDialog>
  );
}

/** Who vouches for the provider (docs/api.md, "Who a provider may sign in"), or why it signs nobody in. */
function Configurer({ provider }: { provider: Provider }) {
  const by = provider.configured_by;
  if (by?.enabled) return <p className="cell-muted">{t('admin.sso.configuredByNamed', { name: by.name })}</p>;
  return <p className="notice">{by ? t('admin.sso.configurerDisabled', { name: by.name }) : t('admin.sso.nobody')}</p>;
}

function ReportDialog({ report, onClose }: { report: Report | null; onClose: () => void }) {
  const rows: Array<[string, string]> = report
    ? [
        [t('admin.sso.report.issuer'), report.issuer],
        [t('admin.sso.report.authorization'), report.authorization_endpoint],
        [t('admin.sso.report.token'), report.token_endpoint],
        [t('admin.sso.report.userinfo'), report.userinfo_endpoint ?? '—'],
        [t('admin.sso.report.jwks'), report.jwks_uri ?? '—'],
        [t('admin.sso.report.pkce'), report.code_challenge_methods_supported?.join(', ') ?? '—'],
        [t('admin.sso.report.auth'), report.token_endpoint_auth_method],
      ]
    : [];
  return (
    <Dialog open={report !== null} onOpenChange={(open) => (open ? null : onClose())} title={t('admin.sso.testOk')} size="lg">
      <dl className="details">
        {rows.map(([label, value]) => (
          <div key={label} className="details__row">
            <dt>{label}</dt>
            <dd>
              <code>{value}</code>
            </dd>
          </div>
        ))}
      </dl>
    </Dialog>
  );
}

export function OidcPage() {
  const providers = useQuery({ queryKey: keys.admin.oidc, queryFn: () => unwrap(api.GET('/api/v1/oidc')) });
  const [report, setReport] = useState<Report | null>(null);
  const test = useAdminMutation(
    (provider: Provider) => unwrap(api.POST('/api/v1/oidc/{id}/test', { params: { path: { id: provider.id } } })),
    { invalidate: [] },
  );
  return (
    <AdminListPage
      query={providers}
      title={t('admin.sso.title')}
      description={t('admin.sso.hint')}
      newLabel={t('admin.sso.new')}
      empty={t('admin.sso.empty')}
      emptyHint={t('admin.sso.emptyHint')}
      remove={(provider) => unwrap(api.DELETE('/api/v1/oidc/{id}', { params: { path: { id: provider.id } } }))}
      invalidate={[['oidc']]}
      dialog={({ open, record, onClose }) => <ProviderDialog open={open} provider={record} onClose={onClose} />}
      columns={[
        {
          key: 'name',
          header: t('admin.field.name'),
          render: (p) => (
            <span>
              <span className="row-name">{p.name}</span> <Badge>{p.provider}</Badge>
              <span className="row-sub">{p.provider_url}</span>
            </span>
          ),
        },
        {
          key: 'configured_by',
          header: t('admin.sso.configuredBy'),
          render: (p) =>
            p.configured_by?.enabled ? (
              <span>{p.configured_by.name}</span>
            ) : (
              <span>
                {p.configured_by ? `${p.configured_by.name} ` : ''}
                <Badge
                  tone="warning"
                  title={p.configured_by ? t('admin.sso.configurerDisabled', { name: p.configured_by.name }) : t('admin.sso.nobody')}
                >
                  {t('admin.sso.signsNobody')}
                </Badge>
              </span>
            ),
        },
        {
          key: 'enabled',
          header: t('admin.enabled'),
          render: (p) => (p.enabled ? <Badge tone="success">{t('admin.enabled')}</Badge> : <Badge>{t('admin.disabled')}</Badge>),
        },
      ]}
      rowButtons={(p) => (
        <Button
          size="sm"
          variant="ghost"
          loading={test.isPending && test.variables?.id === p.id}
          aria-label={t('admin.sso.testNamed', { name: p.name })}
          onClick={() =>
            test.mutate(p, {
              onSuccess: setReport,
              onError: (error) => toast(t('admin.sso.testFailed', { message: error.message }), 'error'),
            })
          }
        >
          {t('admin.sso.test')}
        </Button>
      )}
    >
      <ReportDialog report={report} onClose={() => setReport(null)} />
    </AdminListPage>
  );
}
