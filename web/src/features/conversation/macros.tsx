// Macros in the composer: pick one, see what it will do, apply it. Applying runs its actions on
// the conversation and answers its rendered reply, which goes into the editor to be checked and
// sent (never sent directly from here).
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, type Macro, unwrap } from '../../api/client';
import { keys } from '../../api/keys';
import { useAgents, useTeams } from '../../api/reference';
import { type MessageKey, t } from '../../i18n/t';
import { Button } from '../../ui/Button';
import { Dialog } from '../../ui/Dialog';
import { DropdownMenu } from '../../ui/DropdownMenu';
import { toast } from '../../ui/Toast';
import { displayName } from '../auth/session';
import { useMacros } from './queries';

function useDescribeActions() {
  const agents = useAgents();
  const teams = useTeams();
  return (macro: Macro): string[] =>
    Object.entries(macro.actions).map(([action, value]) => {
      let shown: string;
      if (action === 'assign_user') {
        const agent = agents.data?.find((a) => a.id === value);
        shown = agent ? displayName(agent) : String(value);
      } else if (action === 'assign_team') shown = teams.data?.find((team) => team.id === value)?.name ?? String(value);
      else shown = Array.isArray(value) ? value.join(', ') : String(value);
      return t(`macro.action.${action}` as MessageKey, { value: shown });
    });
}

export function MacroMenu({ conversationUuid, onText }: { conversationUuid: string; onText: (html: string) => void }) {
  const macros = useMacros(conversationUuid);
  const client = useQueryClient();
  const describe = useDescribeActions();
  const [chosen, setChosen] = useState<Macro | null>(null);
  const apply = useMutation({
    mutationFn: (macro: Macro) =>
      unwrap(
        api.POST('/api/v1/conversations/{cuuid}/macros/{id}/apply', {
          params: { path: { cuuid: conversationUuid, id: macro.id } },
          body: { send_message: false },
        }),
      ),
    onSuccess: (result, macro) => {
      client.setQueryData(keys.conversations.detail(conversationUuid), result.conversation);
      void client.invalidateQueries({ queryKey: keys.conversations.lists });
      if (result.message_content.trim()) onText(result.message_content);
      toast(t('reply.macro.applied', { name: macro.name }));
      setChosen(null);
    },
    onError: (error) => toast(error.message, 'error'),
  });
  const list = macros.data ?? [];
  const actions = chosen ? describe(chosen) : [];

  return (
    <>
      <DropdownMenu
        trigger={
          <Button size="sm" variant="ghost">
            {t('reply.macros')}
          </Button>
        }
        entries={
          list.length === 0
            ? [{ label: t('reply.macro.none'), onSelect: () => {}, disabled: true }]
            : list.map((macro) => ({ label: macro.name, onSelect: () => setChosen(macro) }))
        }
      />
      <Dialog
        open={chosen !== null}
        onOpenChange={(open) => (open ? null : setChosen(null))}
        title={chosen ? t('reply.macro.preview', { name: chosen.name }) : ''}
        footer={
          <>
            <Button onClick={() => setChosen(null)}>{t('common.cancel')}</Button>
            <Button variant="primary" loading={apply.isPending} onClick={() => chosen && apply.mutate(chosen)}>
              {t('common.apply')}
            </Button>
          </>
        }
      >
        {actions.length > 0 ? (
          <>
            <p className="macro__lead">{t('reply.macro.actions')}</p>
            <ul className="macro__actions">
              {actions.map((line) => (
                <li key={line}>{line}</li>
              ))}
            </ul>
          </>
        ) : (
          <p>{t('reply.macro.noActions')}</p>
        )}
        {chosen?.message_content.trim() ? (
          <>
            <p className="macro__lead">{t('reply.macro.message')}</p>
            {/* The macro's template as saved (sanitised by the server); placeholders are filled on apply. */}
            {/* biome-ignore lint/security/noDangerouslySetInnerHtml: server-sanitised template */}
            <div className="macro__message message__content" dangerouslySetInnerHTML={{ __html: chosen.message_content }} />
          </>
        ) : (
          <p>{t('reply.macro.noMessage')}</p>
        )}
      </Dialog>
    </>
  );
}
