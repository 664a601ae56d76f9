// The signed-in agent: who they are (GET /agents/me), signing in and out, availability.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type Agent, ApiError, api, csrfToken, unwrap } from '../../api/client';
import { keys } from '../../api/keys';

export type Availability = 'available' | 'busy' | 'away' | 'offline';

/** The current agent; `null` when signed out (the query answers null on 401 instead of failing). */
export function useMe() {
  return useQuery({
    queryKey: keys.me,
    queryFn: async (): Promise<Agent | null> => {
      // No CSRF cookie, no session: signed out, without asking (and without a 401 in the console).
      if (!csrfToken()) return null;
      try {
        return await unwrap(api.GET('/api/v1/agents/me'));
      } catch (error) {
        if (error instanceof ApiError && error.status === 401) return null;
        throw error;
      }
    },
    staleTime: 60_000,
  });
}

/** The agent of a signed-in screen (RequireSession guarantees one). */
export function useAgent(): Agent {
  const { data } = useMe();
  if (!data) throw new Error('useAgent outside a signed-in screen');
  return data;
}

export function can(agent: Agent | null | undefined, permission: string): boolean {
  return agent?.permissions.includes(permission) ?? false;
}

export function useLogin() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: { email: string; password: string }) => unwrap(api.POST('/api/v1/auth/login', { body })),
    // Nothing of another agent can be cached here (logout clears the cache), so nothing is cleared:
    // the sign-in page's own queries are not fetched again on the way out.
    onSuccess: (agent) => client.setQueryData(keys.me, agent),
  });
}

export function useLogout() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => unwrap(api.POST('/api/v1/auth/logout')),
    onSettled: () => {
      client.clear();
      client.setQueryData(keys.me, null);
    },
  });
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
