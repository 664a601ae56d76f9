// The followers' and mentions' request and response schemas (docs/api.md, "Working together").
import { Type } from 'typebox';
import { ConversationListItem } from '../conversations/conversations.schema.ts';
import { DateTime, Nullable } from '../http/schemas.ts';

const AgentId = (description: string) => Type.Integer({ minimum: 1, maximum: 2147483647, description });

export const Follower = Type.Object(
  {
    id: AgentId('Agent id'),
    first_name: Type.String(),
    last_name: Type.String(),
    avatar_url: Nullable(Type.String()),
  },
  { title: 'Follower' },
);

export const FollowBody = Type.Object(
  { agent_id: Type.Optional(AgentId('The agent to add; the caller when absent')) },
  { additionalProperties: false, title: 'FollowBody' },
);

export const FollowerParams = Type.Object({
  cuuid: Type.String({ format: 'uuid', description: 'Conversation uuid' }),
  agent_id: AgentId('Agent id'),
});

export const MentionedConversation = Type.Object(
  {
    ...ConversationListItem.properties,
    mentioned_at: DateTime,
    mention_message_uuid: Type.String({ format: 'uuid', description: 'The note of the newest mention' }),
  },
  { title: 'MentionedConversation', description: 'A conversation list item plus the caller’s newest mention in it.' },
);
