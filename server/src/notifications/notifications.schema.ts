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
