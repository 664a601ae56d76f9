// An inbox's own fields: name, sender address (email), enabled, satisfaction surveys.
import { t } from '../../../i18n/t';
import { Field } from '../../../ui/Field';
import type { FormErrors } from '../../../ui/formErrors';
import { Input } from '../../../ui/Input';
import { Switch } from '../../../ui/Switch';
import type { Draft } from './draft';

export function GeneralTab({ draft, change, errors }: { draft: Draft; change: (fn: (draft: Draft) => void) => void; errors: FormErrors }) {
  return (
    <div className="form-stack">
      <div className="form-grid">
        <Field label={t('admin.field.name')} error={errors.field('name')}>
          <Input
            value={draft.name}
            onChange={(e) =>
              change((d) => {
                d.name = e.target.value;
              })
            }
            maxLength={255}
            autoComplete="off"
          />
        </Field>
        <Field
          label={t('admin.inboxes.from')}
          hint={draft.channel === 'email' ? t('admin.inboxes.fromHint') : t('admin.inboxes.fromHintChat')}
          error={errors.field('from')}
        >
          <Input
            value={draft.from}
            onChange={(e) =>
              change((d) => {
                d.from = e.target.value;
              })
            }
            autoComplete="off"
            placeholder="Support <support@example.com>"
          />
        </Field>
      </div>
      <Switch
        checked={draft.enabled}
        onCheckedChange={(value) =>
          change((d) => {
            d.enabled = value;
          })
        }
        label={t('admin.inboxes.enabled')}
        hint={t('admin.inboxes.enabledHint')}
      />
      <Switch
        checked={draft.csat_enabled}
        onCheckedChange={(value) =>
          change((d) => {
            d.csat_enabled = value;
          })
        }
        label={t('admin.inboxes.csat')}
        hint={t('admin.inboxes.csatHint')}
      />
    </div>
  );
}
