// The agent's own sessions (auth/sessions.service.ts): what GET /agents/me/sessions answers.
import { Type } from 'typebox';
import { DateTime, Nullable } from '../http/schemas.ts';

export const SessionRecord = Type.Object(
  {
    id: Type.String({ format: 'uuid', description: 'The session’s public id (never its cookie, nor a hash of it)' }),
    created_at: DateTime,
    last_seen_at: Type.Union([DateTime, Type.Null()], {
      description: 'Last request made with the session, written at most once a minute; null until its first use after sign-in',
    }),
    ip: Nullable(Type.String({ description: 'The client address the session was opened from' })),
    user_agent: Nullable(Type.String({ description: 'The User-Agent header the session was opened with (at most 512 characters)' })),
    device: Type.Object(
      {
        browser: Nullable(Type.String({ description: 'The browser the user agent names ("Chrome"), or null' })),
        os: Nullable(Type.String({ description: 'The operating system the user agent names ("Linux", "iOS"), or null' })),
      },
      { description: 'The user agent read by the server' },
    ),
    current: Type.Boolean({ description: 'The session this request was made with (always false with API credentials)' }),
  },
  { additionalProperties: false, title: 'AgentSession' },
);

export const SessionParams = Type.Object({ id: Type.String({ format: 'uuid', description: 'A session’s `id`' }) });

export const EndedSessions = Type.Object(
  { ended: Type.Integer({ minimum: 0, description: 'How many sessions were ended' }) },
  { additionalProperties: false },
);
