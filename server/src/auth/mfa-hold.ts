// The enrolment hold (docs/api.md, "Two-factor sign-in"): a password session of an agent whose
// role requires two-factor sign-in, while it has none, may only read and update its profile, set
// up two-factor sign-in and sign out. The one rule, applied by the access hook (http/access.ts)
// and by the agent socket (realtime/agent-socket.ts), which it always refuses.
import { PermissionError } from '../errors.ts';
import type { Principal } from './credential-cache.ts';

export const MFA_SETUP_REQUIRED =
  '2FA setup is required: a role of this agent requires two-factor sign-in. Set it up (POST /api/v1/agents/me/2fa/setup, then /enable) to continue';

const ALLOWED = new Set(['GET /api/v1/agents/me', 'HEAD /api/v1/agents/me', 'PUT /api/v1/agents/me', 'POST /api/v1/auth/logout']);
const ALLOWED_PREFIX = '/api/v1/agents/me/2fa/';

/** Throws the 403 when the principal is held at enrolment and the route (`method`, route pattern) is not one it may call. */
export function assertNotHeldAtEnrolment(principal: Principal, method: string, route: string): void {
  if (!principal.mfaSetupRequired) return;
  if (ALLOWED.has(`${method} ${route}`) || route.startsWith(ALLOWED_PREFIX)) return;
  throw new PermissionError(MFA_SETUP_REQUIRED);
}
