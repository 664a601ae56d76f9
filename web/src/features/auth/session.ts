// The signed-in agent: who they are (GET /agents/me), signing in and out, availability.
import { forgetThisBrowser } from '../notifications-push/browser-push';
import { type QueryClient, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type Agent, ApiError, api, csrfToken, unwrap } from '../../api/client';
import { keys } from '../../api/keys';

export type Availability = 'available' | 'busy' | 'away' | 'offline';

/**
 * The signed-in agent as its session sees it: `mfa_setup_required` (GET /agents/me, sign-in) holds
 * the app at the two-factor enrolment screen until it is set up.
 */
export type Me = Agent & { mfa_setup_required?: boolean };

/** The agent the cache was last filled for, across sign-ins in this tab. */
let cachedFor: number | null = null;

/** The current agent; `null` when signed out (the query answers null on 401 instead of failing). */
export function useMe() {
  return useQuery({
    queryKey: keys.me,
    queryFn: async (): Promise<Me | null> => {
      // No CSRF cookie, no session: signed out, without asking (and without a 401 in the console).
      if (!csrfToken()) return null;
      try {
        const agent = await unwrap(api.GET('/api/v1/agents/me'));
        cachedFor = agent.id;
        return agent;
      } catch (error) {
        if (error instanceof ApiError && error.status === 401) return null;
        throw error;
      }
    },
    staleTime: 60_000,
  });
}

/** The agent the signed-in screens last rendered for, until the next sign-in. */
let lastAgent: Me | null = null;

/**
 * The agent of a signed-in screen (RequireSession guarantees one). On sign-out the cache is
 * emptied while those screens are still mounted: a concurrent render may reach one of them before
 * RequireSession takes them away, and it renders once more for the agent who was signed in rather
 * than throw (React would log the recovery as error #520).
 */
export function useAgent(): Me {
  const { data } = useMe();
  if (data) lastAgent = data;
  if (!lastAgent) throw new Error('useAgent outside a signed-in screen');
  return data ?? lastAgent;
}

export function can(agent: Agent | null | undefined, permission: string): boolean {
  return agent?.permissions.includes(permission) ?? false;
}

/** Drops every cached read but `['me']`: what was read as one agent is not shown to another. */
export function forgetAllButMe(client: QueryClient): void {
  client.removeQueries({ predicate: (query) => query.queryKey[0] !== keys.me[0] });
}

/** A sign-in answered the agent: the cache is its. */
function signedIn(client: QueryClient, agent: Me): void {
  // Logout and a 401 already empty the cache; a different agent signing in empties it again in
  // case anything of the previous one is left. The same agent keeps the sign-in page's queries.
  if (cachedFor !== null && cachedFor !== agent.id) forgetAllButMe(client);
  cachedFor = agent.id;
  client.setQueryData(keys.me, agent);
}

/** The password step: the agent, or (two-factor sign-in on) the challenge the code step answers. */
export function useLogin() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: { email: string; password: string }) => unwrap(api.POST('/api/v1/auth/login', { body })),
    onSuccess: (answer) => {
      if (!('mfa_required' in answer)) signedIn(client, answer);
    },
  });
}

/** The code step of a sign-in with two-factor sign-in on: a code of the app or a recovery code. */
export function useMfaSignIn() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: { challenge: string; code: string }) => unwrap(api.POST('/api/v1/auth/mfa', { body })),
    onSuccess: (agent) => signedIn(client, agent),
  });
}

let signingOut = false;

/**
 * Signs out: `['me']` becomes null, so RequireSession takes the signed-in screens away and sends
 * the browser to the sign-in page; once they are gone it empties the cache (`signedOut`).
 * Emptied under them, those screens would read their data again, as nobody (401s).
 */
export function useLogout() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async () => {
      // A shared browser must not show the next person this agent's pushes (best effort: offline, it stays until turned off).
      await forgetThisBrowser().catch(() => undefined);
      return unwrap(api.POST('/api/v1/auth/logout'));
    },
    onSettled: () => {
      signingOut = true;
      client.setQueryData(keys.me, null);
    },
  });
}

/** Whether the agent is signing out (rather than a session that ended by itself: that one keeps `next`). */
export function isSigningOut(): boolean {
  return signingOut;
}

/** After a sign-out, with the signed-in screens gone: nothing read for the agent stays in the tab. */
export function forgetSignedOut(client: QueryClient): void {
  if (!signingOut) return;
  signingOut = false;
  lastAgent = null;
  client.clear();
  client.setQueryData(keys.me, null);
}

export function useSetAvailability() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: { status: Availability; source?: 'user' | 'idle' }) => unwrap(api.PUT('/api/v1/agents/me/availability', { body })),
    onSuccess: (agent) => client.setQueryData(keys.me, agent),
  });
}

export function useSsoProviders() {
  return useQuery({ queryKey: keys.sso, queryFn: () => unwrap(api.GET('/api/v1/oidc/enabled')), staleTime: 5 * 60_000 });
}

export function displayName(person: { first_name: string; last_name: string; email?: string | null }): string {
  const name = `${person.first_name} ${person.last_name}`.trim();
  return name || person.email || '?';
}
