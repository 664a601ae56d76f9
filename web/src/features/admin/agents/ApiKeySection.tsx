// An agent's API key: generate (or replace) a pair whose secret is shown this once, or revoke it.
import { useState } from 'react';
import { type Agent, api, unwrap } from '../../../api/client';
import { t } from '../../../i18n/t';
import { Button } from '../../../ui/Button';
import { ConfirmDialog } from '../../../ui/ConfirmDialog';
import { CopyField } from '../../../ui/CopyField';
import { ErrorBanner } from '../../../ui/Page';
import { dateTime } from '../../inbox/format';
import { useAdminMutation } from '../crud';

export function ApiKeySection({ agent }: { agent: Agent }) {
  const [pair, setPair] = useState<{ api_key: string; api_secret: string } | null>(null);
  const [confirm, setConfirm] = useState<'generate' | 'revoke' | null>(null);
  const generate = useAdminMutation(() => unwrap(api.POST('/api/v1/agents/{id}/api-key', { params: { path: { id: agent.id } } })), {
    invalidate: [['agents']],
  });
  const revoke = useAdminMutation(() => unwrap(api.DELETE('/api/v1/agents/{id}/api-key', { params: { path: { id: agent.id } } })), {
    invalidate: [['agents']],
    done: t('admin.agents.keyRevoked'),
  });
  const hasKey = pair !== null || (agent.api_key !== null && !revoke.isSuccess);
  const run = async (what: 'generate' | 'revoke') => {
    if (what === 'revoke') {
      await revoke.mutateAsync();
      setPair(null);
      return;
    }
    setPair(await generate.mutateAsync());
  };

  return (
    <section className="form-stack api-key" aria-labelledby={`api-key-${agent.id}`}>
      <h3 id={`api-key-${agent.id}`} className="form-section-title">
        {t('admin.agents.apiKey')}
      </h3>
      {pair ? (
        <>
          <p className="notice">{t('admin.secretOnce')}</p>
          <CopyField label={t('admin.agents.apiKeyId')} value={pair.api_key} />
          <CopyField label={t('admin.agents.apiSecret')} value={pair.api_secret} />
        </>
      ) : hasKey ? (
        <p className="muted">
          {t('admin.agents.keyExists', { key: agent.api_key ?? '' })}{' '}
          {agent.api_key_last_used_at
            ? t('admin.agents.keyUsed', { when: dateTime(agent.api_key_last_used_at) })
            : t('admin.agents.keyNeverUsed')}
        </p>
      ) : (
        <p className="muted">{t('admin.agents.noKey')}</p>
      )}
      <ErrorBanner message={generate.error?.message} />
      <div className="chips">
        <Button size="sm" onClick={() => (hasKey ? setConfirm('generate') : run('generate'))} loading={generate.isPending}>
          {hasKey ? t('admin.agents.regenerateKey') : t('admin.agents.generateKey')}
        </Button>
        {hasKey ? (
          <Button size="sm" variant="ghost" className="danger-text" onClick={() => setConfirm('revoke')}>
            {t('admin.agents.revokeKey')}
          </Button>
        ) : null}
      </div>
      <ConfirmDialog
        open={confirm !== null}
        onOpenChange={(open) => (open ? null : setConfirm(null))}
        title={confirm === 'revoke' ? t('admin.agents.revokeKey') : t('admin.agents.regenerateKey')}
        message={confirm === 'revoke' ? t('admin.agents.revokeConfirm') : t('admin.agents.regenerateConfirm')}
        confirmLabel={confirm === 'revoke' ? t('admin.agents.revokeKey') : t('admin.agents.regenerateKey')}
        onConfirm={() => run(confirm ?? 'generate')}
      />
    </section>
  );
}
