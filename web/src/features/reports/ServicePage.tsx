// The service report: volume (created, resolved, per day), speed (first response and resolution,
// median and 90th percentile), SLA outcomes per metric, satisfaction, and the same per agent and
// per team, for a date range and filters.
import { useSearchParams } from 'react-router';
import { t } from '../../i18n/t';
import { EmptyState } from '../../ui/EmptyState';
import { Card, Page } from '../../ui/Page';
import { QueryState } from '../../ui/QueryState';
import { DataTable } from '../../ui/DataTable';
import { BarList, LineChart, SplitBar } from './charts';
import { count, duration, percent, shortDate, todayIn } from './format';
import { Stat } from './OverviewPage';
import { type ServiceParams, type ServiceReport, serviceParamsFrom, useServiceReport } from './queries';
import { ReportsTabs } from './ReportsTabs';
import { ServiceFilters } from './ServiceFilters';
import './reports.css';

const METRICS = ['first_response', 'next_response', 'resolution'] as const;

function Figures({ report }: { report: ServiceReport }) {
  const csat = report.csat;
  return (
    <>
      <div className="stats stats--wide">
        <Stat label={t('reports.created')} value={count(report.conversations.created)} />
        <Stat label={t('reports.resolved')} value={count(report.conversations.resolved)} />
        <Stat
          label={t('reports.firstResponse')}
          value={duration(report.first_response_seconds.median)}
          hint={t('reports.p90', { value: duration(report.first_response_seconds.p90), n: report.first_response_seconds.count })}
        />
        <Stat
          label={t('reports.resolution')}
          value={duration(report.resolution_seconds.median)}
          hint={t('reports.p90', { value: duration(report.resolution_seconds.p90), n: report.resolution_seconds.count })}
        />
        <Stat
          label={t('reports.csat')}
          value={csat.average === null ? '—' : csat.average.toFixed(2)}
          hint={t('reports.csatResponses', {
            ratings: t('reports.ratings', { n: csat.responses }),
            surveys: t('reports.surveys', { n: csat.sent }),
            rate: percent(csat.responses, csat.sent),
          })}
        />
      </div>
      <Card title={t('reports.perDay')}>
        <LineChart
          label={t('reports.perDayLabel', { from: shortDate(report.from, true), to: shortDate(report.to, true) })}
          dates={report.by_day.map((day) => day.date)}
          series={[
            { key: 'created', label: t('reports.created'), color: 'var(--color-accent)', values: report.by_day.map((day) => day.created) },
            {
              key: 'resolved',
              label: t('reports.resolved'),
              color: 'var(--color-success)',
              values: report.by_day.map((day) => day.resolved),
            },
          ]}
        />
      </Card>
      <div className="report-grid">
        <Card title={t('reports.sla')}>
          <table className="ui-table sla-table">
            <caption className="visually-hidden">{t('reports.sla')}</caption>
            <thead>
              <tr>
                <th scope="col">{t('reports.metric')}</th>
                <th scope="col" className="cell-number">
                  {t('reports.met')}
                </th>
                <th scope="col" className="cell-number">
                  {t('reports.breached')}
                </th>
                <th scope="col" className="cell-number">
                  {t('reports.metRate')}
                </th>
              </tr>
            </thead>
            <tbody>
              {METRICS.map((metric) => {
                const { met, breached } = report.sla[metric];
                return (
                  <tr key={metric}>
                    <th scope="row">
                      {t(`reports.metric.${metric}`)}
                      <SplitBar met={met} breached={breached} label={t('reports.splitLabel', { met, breached })} />
                    </th>
                    <td className="cell-number">{count(met)}</td>
                    <td className="cell-number">{count(breached)}</td>
                    <td className="cell-number">{percent(met, met + breached)}</td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </Card>
        <Card title={t('reports.csatDistribution')}>
          {csat.responses === 0 ? (
            <EmptyState title={t('reports.noRatings')} />
          ) : (
            <BarList
              label={t('reports.csatDistribution')}
              color="var(--color-warning)"
              bars={([5, 4, 3, 2, 1] as const).map((rating) => ({
                key: String(rating),
                label: t('reports.stars', { n: rating }),
                value: csat.distribution[rating],
                note: `(${percent(csat.distribution[rating], csat.responses)})`,
              }))}
            />
          )}
        </Card>
      </div>
      <Card title={t('reports.byAgent')}>
        {report.by_agent.length === 0 ? (
          <EmptyState title={t('reports.nothingInRange')} />
        ) : (
          <DataTable
            caption={t('reports.byAgent')}
            rows={report.by_agent}
            rowKey={(row) => row.agent_id}
            columns={[
              { key: 'name', header: t('reports.agent'), render: (row) => row.name },
              { key: 'resolved', header: t('reports.resolved'), numeric: true, render: (row) => count(row.resolved) },
              {
                key: 'frt',
                header: t('reports.firstResponseMedian'),
                numeric: true,
                render: (row) => duration(row.first_response_median_seconds),
              },
              {
                key: 'csat',
                header: t('reports.csat'),
                numeric: true,
                optional: true,
                render: (row) => (row.csat_average === null ? '—' : row.csat_average.toFixed(2)),
              },
            ]}
          />
        )}
      </Card>
      <Card title={t('reports.byTeam')}>
        {report.by_team.length === 0 ? (
          <EmptyState title={t('reports.nothingInRange')} />
        ) : (
          <DataTable
            caption={t('reports.byTeam')}
            rows={report.by_team}
            rowKey={(row) => row.team_id}
            columns={[
              { key: 'name', header: t('reports.team'), render: (row) => row.name },
              { key: 'created', header: t('reports.created'), numeric: true, render: (row) => count(row.created) },
              { key: 'resolved', header: t('reports.resolved'), numeric: true, render: (row) => count(row.resolved) },
            ]}
          />
        )}
      </Card>
    </>
  );
}

export function ServicePage() {
  const [search, setSearch] = useSearchParams();
  const params = serviceParamsFrom(search);
  const report = useServiceReport(params);
  const today = todayIn(report.data?.timezone);
  const onChange = (changes: Partial<Record<keyof ServiceParams, string | null>>) => {
    const next = new URLSearchParams(search);
    for (const [name, value] of Object.entries(changes)) {
      if (value === null || value === undefined) next.delete(name);
      else next.set(name, value);
    }
    // A range of one date only would be completed by the API differently: send both.
    if (changes.from !== undefined || changes.to !== undefined) {
      if (!next.get('from') && report.data) next.set('from', report.data.from);
      if (!next.get('to') && report.data) next.set('to', report.data.to);
    }
    setSearch(next, { replace: true });
  };
  return (
    <Page title={t('reports.title')} description={<ReportsTabs />}>
      <ServiceFilters
        params={params}
        range={report.data ? { from: report.data.from, to: report.data.to } : null}
        today={today}
        onChange={onChange}
      />
      {report.data ? (
        <p className="cell-muted report-range" aria-live="polite">
          {t('reports.rangeNote', {
            from: shortDate(report.data.from, true),
            to: shortDate(report.data.to, true),
            zone: report.data.timezone,
          })}
          {report.isFetching ? ` · ${t('app.loading')}` : ''}
        </p>
      ) : null}
      <QueryState query={report}>{(data) => <Figures report={data} />}</QueryState>
    </Page>
  );
}
