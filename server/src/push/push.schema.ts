// The shapes of Web Push (docs/api.md, "Web Push"): the VAPID public key and an agent's push
// subscriptions. A subscription's endpoint is a bearer capability (whoever knows it may push to
// the device): answers name its host and a digest, never the URL, and never the `auth` secret.
import { Type } from 'typebox';
import { DateTime, NullableDateTime, Nullable } from '../http/schemas.ts';

/** Subscriptions one agent may hold (one per browser profile, so this is generous). */
export const PUSH_SUBSCRIPTIONS_MAX = 20;
export const PUSH_ENDPOINT_MAX = 2048;

const exact = { additionalProperties: false } as const;

export const VapidPublicKey = Type.Object(
  {
    public_key: Type.String({
      description:
        "The application server's P-256 public key (65 bytes, uncompressed), base64url: `applicationServerKey` of PushManager.subscribe",
    }),
  },
  { ...exact, title: 'VapidPublicKey' },
);

const Base64Url = (description: string) => Type.String({ minLength: 1, maxLength: 100, pattern: '^[A-Za-z0-9_-]+={0,2}$', description });

export const CreatePushSubscriptionBody = Type.Object(
  {
    endpoint: Type.String({
      minLength: 1,
      maxLength: PUSH_ENDPOINT_MAX,
      description: "The push service's URL for this browser (PushSubscription.endpoint): https, and not a private address",
    }),
    keys: Type.Object(
      {
        p256dh: Base64Url("The browser's P-256 public key (65 bytes, uncompressed), base64url"),
        auth: Base64Url('The authentication secret (16 bytes), base64url'),
      },
      exact,
    ),
    // PushSubscription.toJSON() answers it: accepted so a client may send that object as it is.
    expirationTime: Type.Optional(Nullable(Type.Number({ description: 'Ignored (PushSubscription.toJSON() includes it)' }))),
  },
  { ...exact, title: 'CreatePushSubscription' },
);

export const PushSubscriptionRecord = Type.Object(
  {
    id: Type.Integer(),
    endpoint_host: Type.String({ description: "The push service's host (the endpoint itself is never answered)" }),
    endpoint_sha256: Type.String({
      description: "SHA-256 of the endpoint, hex: lets a browser tell its own subscription among the agent's",
    }),
    device: Type.Object(
      { browser: Nullable(Type.String()), os: Nullable(Type.String()) },
      { ...exact, description: 'Read from the User-Agent of the request that subscribed' },
    ),
    created_at: DateTime,
    updated_at: DateTime,
    last_success_at: NullableDateTime,
  },
  { ...exact, title: 'PushSubscription' },
);
