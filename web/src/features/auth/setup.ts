// First run (docs/api.md, "First run"): whether Parley still needs its first admin, and creating it.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../../api/client';
import { keys } from '../../api/keys';

export function useSetupNeeded() {
  return useQuery({ queryKey: keys.setup, queryFn: () => unwrap(api.GET('/api/v1/setup')), staleTime: Number.POSITIVE_INFINITY });
}

export interface SetupInput {
  token: string;
  email: string;
  password: string;
  first_name: string;
  last_name: string;
}

export function useCreateFirstAdmin() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: SetupInput) => unwrap(api.POST('/api/v1/setup', { body })),
    onSuccess: (agent) => {
      const state = client.getQueryData<{ needed: boolean; base_url: string }>(keys.setup);
      client.clear();
      if (state) client.setQueryData(keys.setup, { ...state, needed: false });
      client.setQueryData(keys.me, agent);
    },
  });
}
