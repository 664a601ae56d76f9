// How the live chat behaves: business hours and the away message, who may start conversations,
// the pre-chat form and uploads.
import { t } from '../../../i18n/t';
import { Field } from '../../../ui/Field';
import { Input, Textarea } from '../../../ui/Input';
import { Card } from '../../../ui/Page';
import { Switch } from '../../../ui/Switch';
import { ListInput, OptionalSelect, TimezoneInput, useBusinessHoursList } from '../fields';
import { DEFAULT_PERMISSIONS, type LivechatConfig, type TabProps } from './draft';

type PrechatField = LivechatConfig['prechat_form']['fields'][number];

function Permissions({ who, props }: { who: 'visitors' | 'users'; props: TabProps<LivechatConfig> }) {
  const { config, edit, errors } = props;
  const rules = config[who] ?? DEFAULT_PERMISSIONS;
  const set = <K extends keyof typeof rules>(name: K, value: (typeof rules)[K]) =>
    edit((c) => {
      c[who] = { ...(c[who] ?? DEFAULT_PERMISSIONS), [name]: value };
    });
  return (
    <fieldset className="form-stack plain-fieldset">
      <legend className="form-section-title">{t(`admin.inboxes.rules.${who}`)}</legend>
      <Switch
        checked={rules.allow_start_conversation}
        onCheckedChange={(v) => set('allow_start_conversation', v)}
        label={t('admin.inboxes.allowStart')}
      />
      <Switch
        checked={rules.prevent_multiple_conversations}
        onCheckedChange={(v) => set('prevent_multiple_conversations', v)}
        label={t('admin.inboxes.preventMultiple')}
      />
      <Switch
        checked={rules.prevent_reply_to_closed_conversation}
        onCheckedChange={(v) => set('prevent_reply_to_closed_conversation', v)}
        label={t('admin.inboxes.preventReplyClosed')}
      />
      <Field label={t('admin.inboxes.startButton')} error={errors.field(`config.${who}`)}>
        <Input value={rules.start_conversation_button_text} onChange={(e) => set('start_conversation_button_text', e.target.value)} />
      </Field>
    </fieldset>
  );
}

function Prechat({ config, edit, errors }: TabProps<LivechatConfig>) {
  const form = config.prechat_form;
  const setField = (index: number, changes: Partial<PrechatField>) =>
    edit((c) => {
      const field = c.prechat_form.fields[index];
      if (field) c.prechat_form.fields[index] = { ...field, ...changes };
    });
  return (
    <Card title={t('admin.inboxes.prechat')}>
      <div className="form-stack">
        <Switch
          checked={form.enabled}
          onCheckedChange={(v) =>
            edit((c) => {
              c.prechat_form.enabled = v;
            })
          }
          label={t('admin.inboxes.prechatEnabled')}
          hint={t('admin.inboxes.prechatHint')}
        />
        {form.enabled ? (
          <>
            <Field label={t('admin.inboxes.prechatTitle')} error={errors.field('config.prechat_form.title')}>
              <Input
                value={form.title}
                onChange={(e) =>
                  edit((c) => {
                    c.prechat_form.title = e.target.value;
                  })
                }
                maxLength={200}
              />
            </Field>
            <ul className="prechat-fields">
              {form.fields.map((field, index) => (
                <li key={field.key} className="prechat-field">
                  <span className="prechat-field__key">
                    <code>{field.key}</code> · {t(`admin.inboxes.fieldType.${field.type}`)}
                  </span>
                  <Field label={t('admin.inboxes.fieldLabel')} error={errors.field(`config.prechat_form.fields.${index}`)}>
                    <Input value={field.label} onChange={(e) => setField(index, { label: e.target.value })} />
                  </Field>
                  <Field label={t('admin.inboxes.fieldPlaceholder')}>
                    <Input value={field.placeholder} onChange={(e) => setField(index, { placeholder: e.target.value })} />
                  </Field>
                  <span className="prechat-field__switches">
                    <Switch
                      checked={field.enabled}
                      onCheckedChange={(v) => setField(index, { enabled: v })}
                      label={t('admin.inboxes.fieldShown')}
                    />
                    <Switch
                      checked={field.required}
                      onCheckedChange={(v) => setField(index, { required: v })}
                      label={t('admin.inboxes.fieldRequired')}
                    />
                  </span>
                </li>
              ))}
            </ul>
          </>
        ) : null}
      </div>
    </Card>
  );
}

export function LivechatBehaviour(props: TabProps<LivechatConfig>) {
  const { config, edit, errors } = props;
  const hours = useBusinessHoursList();
  return (
    <div className="form-stack">
      <Card title={t('admin.inboxes.hours')}>
        <div className="form-grid">
          <Field label={t('admin.hours.one')} hint={t('admin.inboxes.hoursHint')} error={errors.field('config.business_hours_id')}>
            <OptionalSelect
              value={config.business_hours_id}
              onChange={(v) =>
                edit((c) => {
                  c.business_hours_id = v;
                })
              }
              options={hours.data ?? []}
              noneLabel={t('admin.teams.defaultHours')}
            />
          </Field>
          <Field label={t('admin.field.timezone')} hint={t('admin.teams.timezoneHint')} error={errors.field('config.timezone')}>
            <TimezoneInput
              optional
              value={config.timezone ?? ''}
              onChange={(e) =>
                edit((c) => {
                  if (e.target.value.trim()) c.timezone = e.target.value.trim();
                  else delete c.timezone;
                })
              }
            />
          </Field>
          <div className="form-grid__full">
            <Field
              label={t('admin.inboxes.awayMessage')}
              hint={t('admin.inboxes.awayMessageHint')}
              error={errors.field('config.away_message')}
            >
              <Textarea
                value={config.away_message}
                onChange={(e) =>
                  edit((c) => {
                    c.away_message = e.target.value;
                  })
                }
                rows={2}
              />
            </Field>
          </div>
        </div>
        <div className="form-stack switches">
          <Switch
            checked={config.show_office_hours_in_chat}
            onCheckedChange={(v) =>
              edit((c) => {
                c.show_office_hours_in_chat = v;
              })
            }
            label={t('admin.inboxes.showHours')}
          />
          <Switch
            checked={config.show_office_hours_after_assignment}
            onCheckedChange={(v) =>
              edit((c) => {
                c.show_office_hours_after_assignment = v;
              })
            }
            label={t('admin.inboxes.showHoursAfter')}
          />
        </div>
      </Card>
      <Card title={t('admin.inboxes.conversations')}>
        <div className="form-stack">
          <Switch
            checked={config.direct_to_conversation}
            onCheckedChange={(v) =>
              edit((c) => {
                c.direct_to_conversation = v;
              })
            }
            label={t('admin.inboxes.directToConversation')}
            hint={t('admin.inboxes.directToConversationHint')}
          />
          <div className="form-grid">
            <Permissions who="visitors" props={props} />
            <Permissions who="users" props={props} />
          </div>
        </div>
      </Card>
      <Prechat {...props} />
      <Card title={t('admin.inboxes.uploads')}>
        <div className="form-stack">
          <Switch
            checked={config.file_upload.enabled}
            onCheckedChange={(v) =>
              edit((c) => {
                c.file_upload.enabled = v;
              })
            }
            label={t('admin.inboxes.uploadsEnabled')}
          />
          <div className="form-grid">
            <Field label={t('admin.inboxes.maxSize')} error={errors.field('config.file_upload.max_size_mb')}>
              <Input
                type="number"
                min={1}
                max={100}
                value={String(config.file_upload.max_size_mb)}
                onChange={(e) =>
                  edit((c) => {
                    c.file_upload.max_size_mb = Number(e.target.value);
                  })
                }
              />
            </Field>
            <Field
              label={t('admin.inboxes.extensions')}
              hint={t('admin.inboxes.extensionsHint')}
              error={errors.field('config.file_upload.allowed_extensions')}
            >
              <ListInput
                multiline={false}
                value={config.file_upload.allowed_extensions}
                onChange={(v) =>
                  edit((c) => {
                    c.file_upload.allowed_extensions = v;
                  })
                }
              />
            </Field>
          </div>
        </div>
      </Card>
    </div>
  );
}
