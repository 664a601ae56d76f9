// The reports' reads: the live counts, the tag distribution over a window, and the service report
// for a range and filters. Reports are read on demand and kept a minute.
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api, type Schemas, unwrap } from '../../api/client';
import { keys } from '../../api/keys';

export type ServiceReport = Schemas['ServiceReport'];

export interface ServiceParams {
  from?: string;
  to?: string;
  team_id?: number;
  inbox_id?: number;
  agent_id?: number;
  tag?: string;
}

export const SERVICE_FILTERS = ['team_id', 'inbox_id', 'agent_id', 'tag'] as const;

export function serviceParamsFrom(search: URLSearchParams): ServiceParams {
  const params: ServiceParams = {};
  const date = (name: 'from' | 'to') => {
    const value = search.get(name);
    if (value && /^\d{4}-\d{2}-\d{2}$/.test(value)) params[name] = value;
  };
  date('from');
  date('to');
  for (const name of ['team_id', 'inbox_id', 'agent_id'] as const) {
    const value = Number(search.get(name));
    if (Number.isInteger(value) && value > 0) params[name] = value;
  }
  const tag = search.get('tag');
  if (tag) params.tag = tag;
  return params;
}

export function useOverviewCounts() {
  return useQuery({
    queryKey: keys.reports.counts,
    queryFn: () => unwrap(api.GET('/api/v1/reports/overview/counts')),
    staleTime: 60_000,
  });
}

export function useTagDistribution(days: number) {
  return useQuery({
    queryKey: keys.reports.tags(days),
    queryFn: () => unwrap(api.GET('/api/v1/reports/overview/tags', { params: { query: { days } } })),
    staleTime: 60_000,
    placeholderData: keepPreviousData,
  });
}

export function useServiceReport(params: ServiceParams) {
  return useQuery({
    queryKey: keys.reports.service({ ...params }),
    queryFn: () => unwrap(api.GET('/api/v1/reports/service', { params: { query: params } })),
    staleTime: 60_000,
    placeholderData: keepPreviousData,
  });
}
