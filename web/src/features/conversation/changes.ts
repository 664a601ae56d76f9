// Every change an agent makes to a conversation (status, priority, assignees, tags), one
// mutation for all: the answer is the updated conversation, written into the cache at once;
// the lists it may enter or leave are refetched.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, type Conversation, unwrap } from '../../api/client';
import { keys } from '../../api/keys';

export type Change =
  | { kind: 'status'; status: string; snoozed_until?: string }
  | { kind: 'priority'; priority: string }
  | { kind: 'assignee'; id: number | null }
  | { kind: 'team'; id: number | null }
  | { kind: 'tags'; tags: string[]; action: 'add_tags' | 'remove_tags' | 'set_tags' };

export function changeConversation(uuid: string, change: Change): Promise<Conversation> {
  const path = { cuuid: uuid };
  switch (change.kind) {
    case 'status':
      return unwrap(
        api.PUT('/api/v1/conversations/{cuuid}/status', {
          params: { path },
          body: { status: change.status, ...(change.snoozed_until ? { snoozed_until: change.snoozed_until } : {}) },
        }),
      );
    case 'priority':
      return unwrap(api.PUT('/api/v1/conversations/{cuuid}/priority', { params: { path }, body: { priority: change.priority } }));
    case 'assignee':
      return change.id === null
        ? unwrap(api.PUT('/api/v1/conversations/{cuuid}/assignee/user/remove', { params: { path } }))
        : unwrap(api.PUT('/api/v1/conversations/{cuuid}/assignee/user', { params: { path }, body: { assignee_id: change.id } }));
    case 'team':
      return change.id === null
        ? unwrap(api.PUT('/api/v1/conversations/{cuuid}/assignee/team/remove', { params: { path } }))
        : unwrap(api.PUT('/api/v1/conversations/{cuuid}/assignee/team', { params: { path }, body: { assignee_id: change.id } }));
    case 'tags':
      return unwrap(
        api.POST('/api/v1/conversations/{cuuid}/tags', { params: { path }, body: { tags: change.tags, action: change.action } }),
      );
  }
}

export function useChangeConversation() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ uuid, change }: { uuid: string; change: Change }) => changeConversation(uuid, change),
    onSuccess: (conversation) => {
      client.setQueryData(keys.conversations.detail(conversation.uuid), conversation);
      void client.invalidateQueries({ queryKey: keys.conversations.lists });
      void client.invalidateQueries({ queryKey: keys.conversations.sla(conversation.uuid) });
    },
  });
}
