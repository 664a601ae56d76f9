// A webhook: where it posts, which events, extra headers (credential values come back masked and
// are kept while the address stays), and its signing secret (generated when left empty, then shown
// once).
import { X } from 'lucide-react';
import { useState } from 'react';
import { api, type Schemas, unwrap } from '../../../api/client';
import { t } from '../../../i18n/t';
import { Button } from '../../../ui/Button';
import { CheckboxGroup } from '../../../ui/CheckboxGroup';
import { Field } from '../../../ui/Field';
import { formErrors } from '../../../ui/formErrors';
import { Input } from '../../../ui/Input';
import { Switch } from '../../../ui/Switch';
import { FormDialog, useAdminMutation } from '../crud';
import { useOnOpen } from '../../../ui/useOnOpen';

export type Webhook = Schemas['Webhook'];
export type WebhookEvent = Webhook['events'][number];
export const WEBHOOK_EVENTS = [
  'conversation.created',
  'conversation.status_changed',
  'conversation.assigned',
  'conversation.unassigned',
  'conversation.priority_changed',
  'conversation.tags_changed',
  'conversation.sla_warning',
  'conversation.sla_breached',
  'message.created',
  'message.updated',
  'contact.created',
  'contact.enabled_changed',
  'contact.merged',
  'webhook.test',
] as const satisfies readonly WebhookEvent[];
// Fails to compile when the API adds an event this list lacks.
const complete: Exclude<WebhookEvent, (typeof WEBHOOK_EVENTS)[number]> extends never ? true : false = true;
void complete;

export const MASK = '••••••••••';

interface HeaderRow {
  name: string;
  value: string;
}
interface WebhookForm {
  name: string;
  url: string;
  enabled: boolean;
  events: string[];
  headers: HeaderRow[];
  secret: string;
}

function initial(webhook: Webhook | null): WebhookForm {
  return {
    name: webhook?.name ?? '',
    url: webhook?.url ?? '',
    enabled: webhook?.enabled ?? true,
    events: webhook ? [...webhook.events] : ['conversation.created'],
    headers: webhook ? Object.entries(webhook.headers).map(([name, value]) => ({ name, value })) : [],
    secret: '',
  };
}

export function WebhookDialog({
  webhook,
  open,
  onClose,
  onSecret,
}: {
  webhook: Webhook | null;
  open: boolean;
  onClose: () => void;
  /** A secret Parley generated, from the creation answer: to show once. */
  onSecret: (secret: string) => void;
}) {
  const [form, setForm] = useState<WebhookForm>(() => initial(webhook));
  const save = useAdminMutation(
    (value: WebhookForm) => {
      const events = WEBHOOK_EVENTS.filter((event) => value.events.includes(event));
      const headers = Object.fromEntries(value.headers.filter((h) => h.name.trim()).map((h) => [h.name.trim(), h.value]));
      const secret = value.secret.trim() ? { secret: value.secret.trim() } : {};
      const body = { name: value.name.trim(), url: value.url.trim(), enabled: value.enabled, events, headers, ...secret };
      return webhook
        ? unwrap(api.PUT('/api/v1/webhooks/{id}', { params: { path: { id: webhook.id } }, body }))
        : unwrap(api.POST('/api/v1/webhooks', { body }));
    },
    { invalidate: [['webhooks']], done: (saved) => t('admin.webhooks.saved', { name: saved.name }) },
  );
  useOnOpen(open, webhook, () => {
    setForm(initial(webhook));
    save.reset();
  });
  const errors = formErrors(save.error);
  const set = <K extends keyof WebhookForm>(name: K, value: WebhookForm[K]) => setForm((current) => ({ ...current, [name]: value }));
  const setHeader = (index: number, changes: Partial<HeaderRow>) =>
    set(
      'headers',
      form.headers.map((h, i) => (i === index ? { ...h, ...changes } : h)),
    );

  return (
    <FormDialog
      open={open}
      onOpenChange={(next) => (next ? null : onClose())}
      title={webhook ? t('admin.webhooks.edit') : t('admin.webhooks.new')}
      onSubmit={() =>
        save.mutate(form, {
          onSuccess: (saved) => {
            onClose();
            if (!webhook && saved.secret !== MASK) onSecret(saved.secret);
          },
        })
      }
      pending={save.isPending}
      banner={errors.banner(['name', 'url', 'enabled', 'events', 'headers', 'secret'])}
      size="lg"
    >
      <div className="form-grid">
        <Field label={t('admin.field.name')} error={errors.field('name')}>
          <Input value={form.name} onChange={(e) => set('name', e.target.value)} maxLength={100} autoComplete="off" />
        </Field>
        <Field label={t('admin.webhooks.url')} hint={t('admin.webhooks.urlHint')} error={errors.field('url')}>
          <Input
            type="url"
            value={form.url}
            onChange={(e) => set('url', e.target.value)}
            placeholder="https://"
            autoComplete="off"
            spellCheck={false}
          />
        </Field>
      </div>
      <Switch checked={form.enabled} onCheckedChange={(v) => set('enabled', v)} label={t('admin.enabled')} />
      <CheckboxGroup
        legend={t('admin.webhooks.events')}
        options={WEBHOOK_EVENTS.map((event) => ({ value: event, label: <code className="permission">{event}</code> }))}
        value={form.events}
        onChange={(value) => set('events', value)}
        error={errors.field('events')}
      />
      <fieldset className="form-stack plain-fieldset">
        <legend className="form-section-title">{t('admin.webhooks.headers')}</legend>
        <p className="cell-muted">{t('admin.webhooks.headersHint')}</p>
        {form.headers.map((header, index) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: a header being typed has no identity but its place
          <div key={index} className="header-row">
            <Input
              value={header.name}
              onChange={(e) => setHeader(index, { name: e.target.value })}
              placeholder="X-Api-Key"
              aria-label={t('admin.webhooks.headerName', { n: index + 1 })}
              spellCheck={false}
            />
            <Input
              value={header.value}
              onChange={(e) => setHeader(index, { value: e.target.value })}
              aria-label={t('admin.webhooks.headerValue', { n: index + 1 })}
              spellCheck={false}
            />
            <Button
              size="sm"
              variant="ghost"
              icon
              aria-label={t('admin.webhooks.removeHeader', { n: index + 1 })}
              onClick={() =>
                set(
                  'headers',
                  form.headers.filter((_, i) => i !== index),
                )
              }
            >
              <X size={16} aria-hidden />
            </Button>
          </div>
        ))}
        {errors.field('headers') ? (
          <p className="ui-field__error" role="alert">
            {errors.field('headers')}
          </p>
        ) : null}
        <div>
          <Button size="sm" onClick={() => set('headers', [...form.headers, { name: '', value: '' }])}>
            + {t('admin.webhooks.addHeader')}
          </Button>
        </div>
      </fieldset>
      <Field
        label={t('admin.webhooks.secret')}
        hint={webhook ? t('admin.webhooks.secretKeep') : t('admin.webhooks.secretNew')}
        error={errors.field('secret')}
      >
        <Input
          value={form.secret}
          onChange={(e) => set('secret', e.target.value)}
          placeholder="whsec_…"
          autoComplete="off"
          spellCheck={false}
        />
      </Field>
    </FormDialog>
  );
}
