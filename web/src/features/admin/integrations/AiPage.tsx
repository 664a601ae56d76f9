// The AI writing helper: the provider (any server speaking OpenAI's chat completions: OpenAI,
// Ollama, vLLM…; its key is never shown again) and the prompts agents pick from.
import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useEffect, useState } from 'react';
import { api, type Schemas, unwrap } from '../../../api/client';
import { keys } from '../../../api/keys';
import { t } from '../../../i18n/t';
import { Badge } from '../../../ui/Badge';
import { Button } from '../../../ui/Button';
import { ConfirmDialog } from '../../../ui/ConfirmDialog';
import { Field } from '../../../ui/Field';
import { formErrors } from '../../../ui/formErrors';
import { Input, Textarea } from '../../../ui/Input';
import { Card, ErrorBanner, Page } from '../../../ui/Page';
import { QueryState } from '../../../ui/QueryState';
import { AdminBack, DataTable, DeleteDialog, FormDialog, RowActions, useAdminMutation, useEditing } from '../crud';
import { useOnOpen } from '../../../ui/useOnOpen';

type Prompt = Schemas['AiPrompt'];
const BUILT_IN = new Set([
  'make_friendly',
  'make_concise',
  'add_empathy',
  'adjust_positive_tone',
  'make_professional',
  'fix_grammar_spelling',
]);

function ProviderForm({ provider }: { provider: Schemas['AiProvider'] | null }) {
  const [baseUrl, setBaseUrl] = useState(provider?.base_url ?? 'https://api.openai.com/v1');
  const [model, setModel] = useState(provider?.model ?? 'gpt-4o-mini');
  const [apiKey, setApiKey] = useState(provider?.api_key ?? '');
  const [removing, setRemoving] = useState(false);
  useEffect(() => {
    setBaseUrl(provider?.base_url ?? 'https://api.openai.com/v1');
    setModel(provider?.model ?? 'gpt-4o-mini');
    setApiKey(provider?.api_key ?? '');
  }, [provider]);
  const save = useAdminMutation(
    () =>
      unwrap(
        api.PUT('/api/v1/ai/provider', { body: { provider: 'openai', api_key: apiKey, base_url: baseUrl.trim(), model: model.trim() } }),
      ),
    { invalidate: [keys.admin.aiProvider, keys.aiStatus], done: t('admin.ai.saved') },
  );
  const remove = useAdminMutation(() => unwrap(api.DELETE('/api/v1/ai/provider')), {
    invalidate: [keys.admin.aiProvider, keys.aiStatus],
    done: t('admin.ai.removed'),
  });
  const errors = formErrors(save.error);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate();
  };
  return (
    <form className="form-stack" onSubmit={submit} noValidate>
      {provider ? null : <p className="notice">{t('admin.ai.none')}</p>}
      <ErrorBanner message={errors.banner(['base_url', 'model', 'api_key'])} />
      <div className="form-grid">
        <Field label={t('admin.ai.baseUrl')} hint={t('admin.ai.baseUrlHint')} error={errors.field('base_url')}>
          <Input type="url" value={baseUrl} onChange={(e) => setBaseUrl(e.target.value)} spellCheck={false} />
        </Field>
        <Field label={t('admin.ai.model')} error={errors.field('model')}>
          <Input value={model} onChange={(e) => setModel(e.target.value)} spellCheck={false} />
        </Field>
        <div className="form-grid__full">
          <Field
            label={t('admin.ai.apiKey')}
            hint={provider?.has_api_key ? t('admin.ai.apiKeyKeep') : t('admin.ai.apiKeyHint')}
            error={errors.field('api_key')}
          >
            <Input type="password" value={apiKey} onChange={(e) => setApiKey(e.target.value)} autoComplete="new-password" />
          </Field>
        </div>
      </div>
      <div className="chips">
        <Button type="submit" variant="primary" loading={save.isPending}>
          {t('common.save')}
        </Button>
        {provider ? (
          <Button variant="ghost" className="danger-text" onClick={() => setRemoving(true)}>
            {t('admin.ai.remove')}
          </Button>
        ) : null}
      </div>
      <ConfirmDialog
        open={removing}
        onOpenChange={setRemoving}
        title={t('admin.ai.remove')}
        message={t('admin.ai.removeConfirm')}
        confirmLabel={t('admin.ai.remove')}
        onConfirm={() => remove.mutateAsync()}
      />
    </form>
  );
}

function PromptDialog({ prompt, open, onClose }: { prompt: Prompt | null; open: boolean; onClose: () => void }) {
  const [key, setKey] = useState('');
  const [title, setTitle] = useState('');
  const [content, setContent] = useState('');
  const save = useAdminMutation(
    () =>
      prompt
        ? unwrap(
            api.PUT('/api/v1/ai/prompts/{key}', {
              params: { path: { key: prompt.key } },
              body: { title: title.trim(), content: content.trim() },
            }),
          )
        : unwrap(api.POST('/api/v1/ai/prompts', { body: { key: key.trim(), title: title.trim(), content: content.trim() } })),
    { invalidate: [keys.aiPrompts], done: (saved) => t('admin.ai.promptSaved', { name: saved.title }) },
  );
  useOnOpen(open, prompt, () => {
    setKey(prompt?.key ?? '');
    setTitle(prompt?.title ?? '');
    setContent(prompt?.content ?? '');
    save.reset();
  });
  const errors = formErrors(save.error);
  return (
    <FormDialog
      open={open}
      onOpenChange={(next) => (next ? null : onClose())}
      title={prompt ? t('admin.ai.editPrompt') : t('admin.ai.newPrompt')}
      onSubmit={() => save.mutate(undefined, { onSuccess: onClose })}
      pending={save.isPending}
      banner={errors.banner(['key', 'title', 'content'])}
      size="lg"
    >
      <div className="form-grid">
        <Field label={t('admin.ai.key')} hint={t('admin.ai.keyHint')} error={errors.field('key')}>
          <Input value={key} onChange={(e) => setKey(e.target.value)} disabled={prompt !== null} maxLength={64} spellCheck={false} />
        </Field>
        <Field label={t('admin.ai.promptTitle')} error={errors.field('title')}>
          <Input value={title} onChange={(e) => setTitle(e.target.value)} maxLength={100} />
        </Field>
      </div>
      <Field label={t('admin.ai.instruction')} hint={t('admin.ai.instructionHint')} error={errors.field('content')}>
        <Textarea value={content} onChange={(e) => setContent(e.target.value)} rows={6} maxLength={4000} />
      </Field>
    </FormDialog>
  );
}

export function AiPage() {
  const provider = useQuery({ queryKey: keys.admin.aiProvider, queryFn: () => unwrap(api.GET('/api/v1/ai/provider')) });
  const prompts = useQuery({ queryKey: keys.aiPrompts, queryFn: () => unwrap(api.GET('/api/v1/ai/prompts')) });
  const state = useEditing<Prompt>();
  const remove = useAdminMutation(
    (prompt: Prompt) => unwrap(api.DELETE('/api/v1/ai/prompts/{key}', { params: { path: { key: prompt.key } } })),
    {
      invalidate: [keys.aiPrompts],
      done: t('admin.deleted'),
    },
  );
  return (
    <Page title={t('admin.ai.title')} description={t('admin.ai.hint')} back={<AdminBack />}>
      <Card title={t('admin.ai.provider')}>
        <QueryState query={provider}>{(data) => <ProviderForm provider={data} />}</QueryState>
      </Card>
      <Card
        title={t('admin.ai.prompts')}
        actions={
          <Button size="sm" onClick={state.create}>
            {t('admin.ai.newPrompt')}
          </Button>
        }
      >
        <QueryState query={prompts}>
          {(list) => (
            <DataTable
              caption={t('admin.ai.prompts')}
              rows={list}
              rowKey={(prompt) => prompt.key}
              columns={[
                {
                  key: 'title',
                  header: t('admin.ai.promptTitle'),
                  render: (prompt) => (
                    <span>
                      <span className="row-name">{prompt.title}</span>{' '}
                      {BUILT_IN.has(prompt.key) ? <Badge>{t('admin.statuses.builtIn')}</Badge> : null}
                      <span className="row-sub">{prompt.content.length > 140 ? `${prompt.content.slice(0, 140)}…` : prompt.content}</span>
                    </span>
                  ),
                },
                { key: 'key', header: t('admin.ai.key'), optional: true, render: (prompt) => <code>{prompt.key}</code> },
              ]}
              actions={(prompt) => (
                <RowActions
                  name={prompt.title}
                  onEdit={() => state.edit(prompt)}
                  onDelete={BUILT_IN.has(prompt.key) ? undefined : () => state.askDelete(prompt)}
                />
              )}
            />
          )}
        </QueryState>
      </Card>
      <PromptDialog open={state.editing !== null} prompt={state.editing?.record ?? null} onClose={state.close} />
      <DeleteDialog
        name={state.deleting?.title ?? ''}
        open={state.deleting !== null}
        onClose={state.closeDelete}
        onConfirm={() => (state.deleting ? remove.mutateAsync(state.deleting) : Promise.resolve())}
      />
    </Page>
  );
}
