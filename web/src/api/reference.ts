// The small lists every screen names things from (statuses, priorities, tags, teams, agents,
// inboxes): read once, kept for minutes, refreshed by invalidating their keys.
import { useQuery } from '@tanstack/react-query';
import { api, unwrap } from './client';
import { keys } from './keys';

const LONG = 5 * 60_000;

export const useStatuses = () => useQuery({ queryKey: keys.statuses, queryFn: () => unwrap(api.GET('/api/v1/statuses')), staleTime: LONG });
export const usePriorities = () =>
  useQuery({ queryKey: keys.priorities, queryFn: () => unwrap(api.GET('/api/v1/priorities')), staleTime: LONG });
export const useTags = () => useQuery({ queryKey: keys.tags, queryFn: () => unwrap(api.GET('/api/v1/tags')), staleTime: LONG });
export const useTeams = () => useQuery({ queryKey: keys.teams, queryFn: () => unwrap(api.GET('/api/v1/teams/compact')), staleTime: LONG });
export const useAgents = () =>
  useQuery({ queryKey: keys.agents, queryFn: () => unwrap(api.GET('/api/v1/agents/compact')), staleTime: LONG });
export const useInboxes = () =>
  useQuery({ queryKey: keys.inboxes, queryFn: () => unwrap(api.GET('/api/v1/inboxes/compact')), staleTime: LONG });
