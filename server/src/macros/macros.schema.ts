// Request and response schemas of macros (spec: Macro).
import { Type } from 'typebox';
import { Conversation } from '../conversations/conversations.schema.ts';
import { MACRO_VISIBILITIES } from '../db/types.ts';
import { DateTime, Nullable, StringEnum, PutBody } from '../http/schemas.ts';

export const VISIBLE_WHEN = ['conversation_open', 'conversation_waiting', 'conversation_resolved'] as const;

const Id = (description: string) => Type.Integer({ minimum: 1, maximum: 2147483647, description });
const TagNames = (description: string, minItems: number) =>
  Type.Array(Type.String({ minLength: 1, maxLength: 100, pattern: '\\S' }), { minItems, maxItems: 100, description });

/** One key per action type; each at most once (it is a JSON object). Unknown keys are refused. */
export const MacroActions = Type.Object(
  {
    set_status: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 50,
        pattern: '\\S',
        description: 'Status name (case-insensitive), e.g. Resolved. Snoozed is refused: a macro cannot give the snooze time.',
      }),
    ),
    set_priority: Type.Optional(Type.String({ minLength: 1, maxLength: 50, pattern: '\\S', description: 'Low, Medium, High or Urgent' })),
    assign_team: Type.Optional(Id('Team id')),
    assign_user: Type.Optional(Id('Agent id')),
    apply_sla: Type.Optional(Id('SLA policy id: applied to the conversation (replacing an applied one)')),
    add_tags: Type.Optional(TagNames('Tag names to add (case-insensitive)', 1)),
    remove_tags: Type.Optional(TagNames('Tag names to remove (case-insensitive)', 1)),
    set_tags: Type.Optional(
      TagNames('The tags the conversation ends with; [] removes every tag. Applied before add_tags and remove_tags.', 0),
    ),
  },
  {
    additionalProperties: false,
    title: 'MacroActions',
    description:
      'Keyed by action type. Referenced statuses, priorities, teams, agents and tags must exist when the macro is saved and when it is applied (400 naming the field, e.g. `actions.set_status`). On apply they run in the order assign_team, apply_sla, assign_user, set_status, set_priority, set_tags, add_tags, remove_tags, each needing its conversation permission (apply_sla: `sla:manage` or `conversations:update_team_assignee`).',
  },
);

const Visibility = StringEnum(MACRO_VISIBILITIES, {
  description: '`global`: every agent; `team`: members of `team_id`; `user`: only `user_id`',
});
const VisibleWhen = Type.Array(StringEnum(VISIBLE_WHEN), {
  minItems: 1,
  maxItems: 3,
  description: 'Status categories of the conversations the macro is offered for (duplicates are dropped). Default: all three.',
});
/** The spec carries these ids as strings; an integer is accepted too, and null or "" means none. */
const OwnerId = (what: string) =>
  Type.Union([Type.String({ pattern: '^(?:|[1-9][0-9]{0,9})$' }), Type.Integer({ minimum: 1, maximum: 2147483647 }), Type.Null()], {
    description: `${what} id as a string (an integer is accepted); null or "" for none`,
  });

const fields = {
  name: Type.String({ minLength: 1, maxLength: 1000, description: 'Trimmed; then 1..255 characters' }),
  actions: MacroActions,
  visibility: Visibility,
  visible_when: VisibleWhen,
  message_content: Type.String({
    maxLength: 100_000,
    description:
      'HTML (sanitised when saved). Placeholders: {{contact.first_name}}, {{contact.last_name}}, {{contact.email}}, {{agent.first_name}}, {{agent.last_name}}, {{conversation.reference_number}}, {{conversation.subject}}',
  }),
  team_id: OwnerId('Team (required for visibility `team`; cleared otherwise)'),
  user_id: OwnerId('Agent (required for visibility `user`; cleared otherwise)'),
  // Read-only fields of the record: accepted so that a fetched macro can be sent back as it is, and ignored.
  id: Type.Integer({ description: 'Ignored (the path names the macro)' }),
  created_at: Type.String({ description: 'Ignored' }),
  updated_at: Type.String({ description: 'Ignored' }),
  usage_count: Type.Integer({ description: 'Ignored (counted by the server)' }),
};

const writable = {
  actions: Type.Optional(fields.actions),
  visibility: Type.Optional(fields.visibility),
  visible_when: Type.Optional(fields.visible_when),
  message_content: Type.Optional(fields.message_content),
  team_id: Type.Optional(fields.team_id),
  user_id: Type.Optional(fields.user_id),
};

const optional = {
  ...writable,
  id: Type.Optional(fields.id),
  created_at: Type.Optional(fields.created_at),
  updated_at: Type.Optional(fields.updated_at),
  usage_count: Type.Optional(fields.usage_count),
};

export const CreateMacroBody = Type.Object(
  { name: fields.name, ...optional },
  {
    additionalProperties: false,
    description:
      'A Macro object. Defaults: actions {}, visibility global, visible_when all three categories, message_content "". `global` and `team` macros need `macros:manage`; any agent may create a `user` macro of their own. id, created_at, updated_at and usage_count are ignored.',
  },
);

export const MacroRecord = Type.Object(
  {
    id: Type.Integer(),
    created_at: DateTime,
    updated_at: DateTime,
    name: Type.String(),
    actions: MacroActions,
    visibility: Visibility,
    visible_when: Type.Array(StringEnum(VISIBLE_WHEN)),
    message_content: Type.String(),
    user_id: Nullable(Type.String({ description: 'Owner agent id of a `user` macro, as a string' })),
    team_id: Nullable(Type.String({ description: 'Team id of a `team` macro, as a string' })),
    usage_count: Type.Integer(),
  },
  { title: 'Macro' },
);

// The record's read-only fields (id, created_at, updated_at, usage_count) are accepted and ignored (PutBody).
export const UpdateMacroBody = PutBody(
  Type.Object(
    { name: Type.Optional(fields.name), ...writable },
    {
      additionalProperties: false,
      description:
        'A Macro object, whole or partial: omitted fields keep their value. id, created_at, updated_at and usage_count are ignored. Changing a macro needs the right to manage it before and after the change.',
    },
  ),
  MacroRecord,
);

export const MacroListQuery = Type.Object({
  conversation_uuid: Type.Optional(
    Type.String({
      format: 'uuid',
      description: "Only the macros offered for this conversation's status category (the conversation must be readable)",
    }),
  ),
});

export const ApplyParams = Type.Object({
  cuuid: Type.String({ format: 'uuid', description: 'Conversation uuid' }),
  id: Type.Integer({ minimum: 1, maximum: 2147483647, description: 'Macro id' }),
});

/** Optional: no body (or null) means `{"send_message": false}`. */
export const ApplyBody = Type.Union(
  [
    Type.Object(
      {
        send_message: Type.Optional(
          Type.Boolean({
            default: false,
            description: 'Send the rendered message_content as a reply (needs `messages:write`); nothing is sent when it is empty',
          }),
        ),
      },
      { additionalProperties: false },
    ),
    Type.Null(),
  ],
  { description: 'Optional; no body means `{"send_message": false}`' },
);

export const ApplyResult = Type.Object(
  {
    conversation: Conversation,
    message_content: Type.String({
      description: "The macro's message_content rendered for this conversation (placeholder values HTML-escaped)",
    }),
  },
  { title: 'MacroApplyResult' },
);
