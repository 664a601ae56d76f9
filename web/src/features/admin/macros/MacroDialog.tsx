// A macro: its name, who sees it (everyone, a team, one agent), for which conversations, what it
// changes (the actions) and the reply it writes (HTML, with placeholders filled in at apply).
import { teamLabel } from '../../../ui/glyph';
import { useRef, useState } from 'react';
import { api, type Macro, unwrap } from '../../../api/client';
import { useAgents, useTeams } from '../../../api/reference';
import { t } from '../../../i18n/t';
import { Button } from '../../../ui/Button';
import { CheckboxGroup } from '../../../ui/CheckboxGroup';
import { Field } from '../../../ui/Field';
import { formErrors } from '../../../ui/formErrors';
import { Input, Textarea } from '../../../ui/Input';
import { Select } from '../../../ui/Select';
import { FormDialog, useAdminMutation } from '../crud';
import { ActionsEditor, type ActionDraft, actionsOf, draftOf } from './ActionsEditor';
import { useOnOpen } from '../../../ui/useOnOpen';

type Visibility = Macro['visibility'];
type VisibleWhen = Macro['visible_when'][number];
const WHEN: readonly VisibleWhen[] = ['conversation_open', 'conversation_waiting', 'conversation_resolved'];
export const PLACEHOLDERS = [
  '{{contact.first_name}}',
  '{{contact.last_name}}',
  '{{contact.email}}',
  '{{agent.first_name}}',
  '{{agent.last_name}}',
  '{{conversation.reference_number}}',
  '{{conversation.subject}}',
] as const;

interface MacroForm {
  name: string;
  visibility: Visibility;
  team_id: string;
  user_id: string;
  visible_when: string[];
  draft: ActionDraft;
  message_content: string;
}

function initial(macro: Macro | null): MacroForm {
  return {
    name: macro?.name ?? '',
    visibility: macro?.visibility ?? 'global',
    team_id: macro?.team_id ?? '',
    user_id: macro?.user_id ?? '',
    visible_when: macro ? [...macro.visible_when] : [...WHEN],
    draft: draftOf(macro?.actions ?? {}),
    message_content: macro?.message_content ?? '',
  };
}

export function MacroDialog({ macro, open, onClose }: { macro: Macro | null; open: boolean; onClose: () => void }) {
  const teams = useTeams();
  const agents = useAgents();
  const [form, setForm] = useState<MacroForm>(() => initial(macro));
  const content = useRef<HTMLTextAreaElement>(null);
  const save = useAdminMutation(
    (value: MacroForm) => {
      const body = {
        name: value.name.trim(),
        visibility: value.visibility,
        team_id: value.visibility === 'team' ? value.team_id || null : null,
        user_id: value.visibility === 'user' ? value.user_id || null : null,
        visible_when: WHEN.filter((when) => value.visible_when.includes(when)),
        actions: actionsOf(value.draft),
        message_content: value.message_content,
      };
      return macro
        ? unwrap(api.PUT('/api/v1/macros/{id}', { params: { path: { id: macro.id } }, body }))
        : unwrap(api.POST('/api/v1/macros', { body }));
    },
    { invalidate: [['macros']], done: (saved) => t('admin.macros.saved', { name: saved.name }) },
  );
  useOnOpen(open, macro, () => {
    setForm(initial(macro));
    save.reset();
  });
  const errors = formErrors(save.error);
  const set = <K extends keyof MacroForm>(name: K, value: MacroForm[K]) => setForm((current) => ({ ...current, [name]: value }));
  const insert = (placeholder: string) => {
    const area = content.current;
    const at = area ? area.selectionStart : form.message_content.length;
    const end = area ? area.selectionEnd : at;
    set('message_content', form.message_content.slice(0, at) + placeholder + form.message_content.slice(end));
    requestAnimationFrame(() => {
      area?.focus();
      area?.setSelectionRange(at + placeholder.length, at + placeholder.length);
    });
  };

  return (
    <FormDialog
      open={open}
      onOpenChange={(next) => (next ? null : onClose())}
      title={macro ? t('admin.macros.edit') : t('admin.macros.new')}
      onSubmit={() => save.mutate(form, { onSuccess: onClose })}
      pending={save.isPending}
      banner={errors.banner(['name', 'visibility', 'team_id', 'user_id', 'visible_when', 'actions', 'message_content'])}
      size="lg"
    >
      <div className="form-grid">
        <div className="form-grid__full">
          <Field label={t('admin.field.name')} error={errors.field('name')}>
            <Input value={form.name} onChange={(e) => set('name', e.target.value)} maxLength={255} autoComplete="off" />
          </Field>
        </div>
        <Field label={t('admin.macros.visibility')} error={errors.field('visibility')}>
          <Select
            value={form.visibility}
            onValueChange={(value) => set('visibility', value === 'team' || value === 'user' ? value : 'global')}
            options={(['global', 'team', 'user'] as const).map((value) => ({ value, label: t(`admin.macros.visibility.${value}`) }))}
          />
        </Field>
        {form.visibility === 'team' ? (
          <Field label={t('admin.macros.team')} error={errors.field('team_id')}>
            <Select
              value={form.team_id}
              placeholder={t('admin.macros.choose')}
              onValueChange={(value) => set('team_id', value)}
              options={(teams.data ?? []).map((team) => ({ value: String(team.id), label: teamLabel(team) }))}
            />
          </Field>
        ) : form.visibility === 'user' ? (
          <Field label={t('admin.macros.owner')} error={errors.field('user_id')}>
            <Select
              value={form.user_id}
              placeholder={t('admin.macros.choose')}
              onValueChange={(value) => set('user_id', value)}
              options={(agents.data ?? []).map((agent) => ({
                value: String(agent.id),
                label: `${agent.first_name} ${agent.last_name}`.trim(),
              }))}
            />
          </Field>
        ) : (
          <span />
        )}
      </div>
      <CheckboxGroup
        legend={t('admin.macros.visibleWhen')}
        options={WHEN.map((value) => ({ value, label: t(`admin.macros.when.${value}`) }))}
        value={form.visible_when}
        onChange={(value) => set('visible_when', value)}
        error={errors.field('visible_when')}
      />
      <ActionsEditor draft={form.draft} onChange={(draft) => set('draft', draft)} error={errors.field('actions')} />
      <Field label={t('admin.macros.message')} hint={t('admin.macros.messageHint')} error={errors.field('message_content')}>
        <Textarea ref={content} value={form.message_content} onChange={(e) => set('message_content', e.target.value)} rows={5} />
      </Field>
      <fieldset className="chips plain-fieldset">
        <legend className="visually-hidden">{t('admin.macros.placeholders')}</legend>
        {PLACEHOLDERS.map((placeholder) => (
          <Button key={placeholder} size="sm" onClick={() => insert(placeholder)}>
            {placeholder}
          </Button>
        ))}
      </fieldset>
    </FormDialog>
  );
}
