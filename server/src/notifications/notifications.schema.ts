// The shapes of notifications and their preferences (docs/api.md, "Working together"). The
// record is declared with the `notification.created` event (events/events.schema.ts), so the
// list, the socket frame and the event cannot drift apart.
import { Type } from 'typebox';
import { NOTIFICATION_TYPES } from '../db/types.ts';
import { NotificationRecord } from '../events/events.schema.ts';

export { NotificationRecord };

/** The job that delivers one notification to its agent's push subscriptions (push/). Payload: `{notification_id}`. */
export const PUSH_NOTIFICATION_JOB = 'push.notify';

const exact = { additionalProperties: false } as const;
const Choice = Type.Object({ in_app: Type.Boolean(), email: Type.Boolean(), push: Type.Boolean() }, exact);

export const NotificationSettingsRecord = Type.Object(
  {
    types: Type.Object(Object.fromEntries(NOTIFICATION_TYPES.map((type) => [type, Choice])), exact),
    email_digest: Type.Boolean(),
    sound: Type.Boolean(),
    title_count: Type.Boolean(),
  },
  { ...exact, title: 'NotificationSettings' },
);

// The HTTP surface (notifications.routes.ts).

export const NotificationParams = Type.Object({
  id: Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER, description: 'A notification’s `id`' }),
});

export const NotificationListQuery = Type.Object(
  {
    page: Type.Optional(Type.Integer({ default: 1, description: 'Page number, from 1; larger values are clamped.' })),
    page_size: Type.Optional(Type.Integer({ default: 30, description: 'Items per page, 1..100; values outside are clamped.' })),
    unread: Type.Optional(Type.Boolean({ description: '`true`: only the unread ones.' })),
  },
  exact,
);

export const UnreadCount = Type.Object({ count: Type.Integer({ minimum: 0 }) }, exact);

export const MarkedCount = Type.Object(
  { count: Type.Integer({ minimum: 0, description: 'How many notifications were unread and are read now' }) },
  exact,
);

const ChoiceChange = Type.Object(
  { in_app: Type.Optional(Type.Boolean()), email: Type.Optional(Type.Boolean()), push: Type.Optional(Type.Boolean()) },
  exact,
);

/** A partial change: what is absent keeps its value. The whole record as GET answered it is accepted too. */
export const NotificationSettingsBody = Type.Object(
  {
    types: Type.Optional(Type.Object(Object.fromEntries(NOTIFICATION_TYPES.map((type) => [type, Type.Optional(ChoiceChange)])), exact)),
    email_digest: Type.Optional(Type.Boolean()),
    sound: Type.Optional(Type.Boolean()),
    title_count: Type.Optional(Type.Boolean()),
  },
  { ...exact, title: 'NotificationSettingsChange' },
);
