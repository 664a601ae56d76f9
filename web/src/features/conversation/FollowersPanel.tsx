// The conversation's followers in the sidebar (docs/api.md, "Working together"): who hears about
// it, Follow/Unfollow for the agent, and, with `conversations:update_user_assignee`, adding and
// removing others. The list sits under the conversation's key, so whatever re-reads the
// conversation (an assignment, a note: both make followers) re-reads it too.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { X } from 'lucide-react';
import { useEffect, useRef } from 'react';
import type { Conversation } from '../../api/client';
import { api, unwrap } from '../../api/client';
import { keys } from '../../api/keys';
import { useAgents } from '../../api/reference';
import { t } from '../../i18n/t';
import { Avatar } from '../../ui/Avatar';
import { Button } from '../../ui/Button';
import { Select } from '../../ui/Select';
import { toast } from '../../ui/Toast';
import { can, displayName, useAgent } from '../auth/session';
import './mentions.css';

const followersKey = (uuid: string) => [...keys.conversations.detail(uuid), 'followers'] as const;

export function FollowersPanel({ conversation: c }: { conversation: Conversation }) {
  const me = useAgent();
  const agents = useAgents();
  const client = useQueryClient();
  const key = followersKey(c.uuid);
  const followers = useQuery({
    queryKey: key,
    queryFn: () => unwrap(api.GET('/api/v1/conversations/{cuuid}/followers', { params: { path: { cuuid: c.uuid } } })),
  });
  // Writing in the conversation and being assigned it make followers: a new message in the
  // thread's cache (a socket frame, the agent's own send) or another assignee reads them again.
  useEffect(() => {
    const thread = JSON.stringify(keys.conversations.messages(c.uuid));
    return client.getQueryCache().subscribe((event) => {
      if (event.type === 'updated' && event.action.type === 'success' && JSON.stringify(event.query.queryKey) === thread)
        void client.invalidateQueries({ queryKey: followersKey(c.uuid), exact: true });
    });
  }, [client, c.uuid]);
  const assignee = useRef(c.assigned_user_id);
  useEffect(() => {
    if (assignee.current === c.assigned_user_id) return;
    assignee.current = c.assigned_user_id;
    void client.invalidateQueries({ queryKey: followersKey(c.uuid), exact: true });
  }, [client, c.uuid, c.assigned_user_id]);
  const done = {
    onSuccess: (list: NonNullable<typeof followers.data>) => client.setQueryData(key, list),
    onError: (error: Error) => toast(error.message, 'error'),
  };
  const add = useMutation({
    mutationFn: (agentId?: number) =>
      unwrap(
        api.POST('/api/v1/conversations/{cuuid}/followers', {
          params: { path: { cuuid: c.uuid } },
          body: agentId === undefined ? {} : { agent_id: agentId },
        }),
      ),
    ...done,
  });
  const remove = useMutation({
    mutationFn: (agentId: number) =>
      unwrap(api.DELETE('/api/v1/conversations/{cuuid}/followers/{agent_id}', { params: { path: { cuuid: c.uuid, agent_id: agentId } } })),
    ...done,
  });

  const list = followers.data ?? [];
  const following = list.some((f) => f.id === me.id);
  const manageOthers = can(me, 'conversations:update_user_assignee');
  const others = (agents.data ?? []).filter((a) => a.enabled && a.id !== me.id && !list.some((f) => f.id === a.id));
  const busy = add.isPending || remove.isPending;

  return (
    <section className="details__section" aria-labelledby="details-followers">
      <h3 id="details-followers" className="details__label">
        {t('followers.title')}
      </h3>
      {followers.isSuccess && list.length === 0 ? <p className="details__note">{t('followers.none')}</p> : null}
      <ul className="followers__list" aria-labelledby="details-followers">
        {list.map((f) => {
          const name = displayName(f);
          const mine = f.id === me.id;
          return (
            <li key={f.id} className="followers__item">
              <Avatar name={name} src={f.avatar_url} size="sm" />
              <span className="followers__name">{mine ? t('followers.you', { name }) : name}</span>
              {!mine && manageOthers ? (
                <button
                  type="button"
                  className="chip__remove"
                  aria-label={t('followers.remove', { name })}
                  disabled={busy}
                  onClick={() => remove.mutate(f.id)}
                >
                  <X size={12} aria-hidden />
                </button>
              ) : null}
            </li>
          );
        })}
      </ul>
      <div className="followers__actions">
        <Button
          size="sm"
          disabled={busy || !followers.isSuccess}
          onClick={() => (following ? remove.mutate(me.id) : add.mutate(undefined))}
        >
          {following ? t('followers.unfollow') : t('followers.follow')}
        </Button>
        {manageOthers && others.length > 0 ? (
          <Select
            size="sm"
            aria-label={t('followers.add')}
            value=""
            placeholder={t('followers.add')}
            disabled={busy}
            options={others.map((a) => ({ value: String(a.id), label: displayName(a) }))}
            onValueChange={(value) => add.mutate(Number(value))}
          />
        ) : null}
      </div>
    </section>
  );
}
