// What is happening now (open, waiting, unassigned, awaiting a first reply; agents by
// availability) and which tags the recent conversations carry.
import { useState } from 'react';
import { t } from '../../i18n/t';
import { Card, Page } from '../../ui/Page';
import { QueryState } from '../../ui/QueryState';
import { Select } from '../../ui/Select';
import { EmptyState } from '../../ui/EmptyState';
import { BarList } from './charts';
import { count, percent } from './format';
import { useOverviewCounts, useTagDistribution } from './queries';
import { ReportsTabs } from './ReportsTabs';
import './reports.css';

const WINDOWS = [0, 7, 30, 90, 365] as const;

export function Stat({ label, value, hint }: { label: string; value: string; hint?: string }) {
  return (
    <div className="stat">
      <span className="stat__label">{label}</span>
      <span className="stat__value">{value}</span>
      {hint ? <span className="stat__hint">{hint}</span> : null}
    </div>
  );
}

export function OverviewPage() {
  const counts = useOverviewCounts();
  const [days, setDays] = useState(30);
  const tags = useTagDistribution(days);
  return (
    <Page title={t('reports.title')} description={<ReportsTabs />}>
      <Card title={t('reports.now')}>
        <QueryState query={counts}>
          {(data) => (
            <div className="stats">
              <Stat label={t('reports.open')} value={count(data.open)} />
              <Stat label={t('reports.waiting')} value={count(data.waiting)} />
              <Stat label={t('reports.unassigned')} value={count(data.unassigned)} />
              <Stat label={t('reports.awaitingFirstReply')} value={count(data.awaiting_first_reply)} />
            </div>
          )}
        </QueryState>
      </Card>
      <Card title={t('reports.agents')}>
        <QueryState query={counts}>
          {(data) => (
            <div className="stats">
              {(['available', 'busy', 'away', 'offline'] as const).map((status) => (
                <Stat key={status} label={t(`availability.${status}`)} value={count(data.agents[status])} />
              ))}
            </div>
          )}
        </QueryState>
      </Card>
      <Card
        title={t('reports.tags')}
        actions={
          <Select
            size="sm"
            aria-label={t('reports.window')}
            value={String(days)}
            onValueChange={(value) => setDays(Number(value))}
            options={WINDOWS.map((n) => ({
              value: String(n),
              label: n === 0 ? t('reports.window.today') : t('reports.window.days', { n }),
            }))}
          />
        }
      >
        <QueryState query={tags}>
          {(data) => {
            const total = data.tagged_conversations + data.untagged_conversations;
            return (
              <div className="form-stack">
                <div className="stats">
                  <Stat label={t('reports.conversations')} value={count(total)} />
                  <Stat label={t('reports.tagged')} value={count(data.tagged_conversations)} hint={`${data.tagged_percentage} %`} />
                  <Stat label={t('reports.untagged')} value={count(data.untagged_conversations)} />
                </div>
                {data.top_tags.length === 0 ? (
                  <EmptyState title={t('reports.noTags')} />
                ) : (
                  <BarList
                    label={t('reports.topTags')}
                    bars={data.top_tags.map((tag) => ({
                      key: String(tag.tag_id),
                      label: tag.tag_name,
                      value: tag.count,
                      note: `(${percent(tag.count, total)})`,
                    }))}
                  />
                )}
              </div>
            );
          }}
        </QueryState>
      </Card>
    </Page>
  );
}
