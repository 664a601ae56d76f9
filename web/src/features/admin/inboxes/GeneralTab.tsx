// An inbox's own fields: name, sender address (email), enabled, satisfaction surveys, and how its
// new conversations are routed (a default team, assigning the agent who replies first).
import { useTeams } from '../../../api/reference';
import { t } from '../../../i18n/t';
import { Field } from '../../../ui/Field';
import type { FormErrors } from '../../../ui/formErrors';
import { Input } from '../../../ui/Input';
import { Select } from '../../../ui/Select';
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
      <Routing draft={draft} change={change} errors={errors} />
    </div>
  );
}

/** Radix Select takes no empty value: "no team" has its own. */
const NO_TEAM = 'none';

function Routing({ draft, change, errors }: { draft: Draft; change: (fn: (draft: Draft) => void) => void; errors: FormErrors }) {
  const teams = useTeams();
  const options = [
    { value: NO_TEAM, label: t('admin.inboxes.noDefaultTeam') },
    ...(teams.data ?? []).map((team) => ({ value: String(team.id), label: team.name })),
  ];
  return (
    <section className="form-stack" aria-labelledby="inbox-routing">
      <h3 id="inbox-routing" className="form-section-title">
        {t('admin.inboxes.routing')}
      </h3>
      <div className="form-grid">
        <Field label={t('admin.inboxes.defaultTeam')} hint={t('admin.inboxes.defaultTeamHint')} error={errors.field('default_team_id')}>
          <Select
            value={draft.default_team_id === null ? NO_TEAM : String(draft.default_team_id)}
            onValueChange={(value) =>
              change((d) => {
                d.default_team_id = value === NO_TEAM ? null : Number(value);
              })
            }
            options={options}
          />
        </Field>
      </div>
      <Switch
        checked={draft.assign_on_first_reply}
        onCheckedChange={(value) =>
          change((d) => {
            d.assign_on_first_reply = value;
          })
        }
        label={t('admin.inboxes.assignOnFirstReply')}
        hint={t('admin.inboxes.assignOnFirstReplyHint')}
      />
    </section>
  );
}
