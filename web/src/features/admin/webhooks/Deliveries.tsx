// A webhook's delivery log, newest first, filtered by status; a delivery opens with the exact body
// sent and every attempt, and can be retried now.
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { api, type Schemas, unwrap } from '../../../api/client';
import { keys } from '../../../api/keys';
import { t } from '../../../i18n/t';
import { Badge, type Tone } from '../../../ui/Badge';
import { Button } from '../../../ui/Button';
import { DataTable } from '../../../ui/DataTable';
import { Dialog } from '../../../ui/Dialog';
import { EmptyState } from '../../../ui/EmptyState';
import { Card, ErrorBanner } from '../../../ui/Page';
import { Pager } from '../../../ui/Pager';
import { QueryState } from '../../../ui/QueryState';
import { Select } from '../../../ui/Select';
import { ScrollableBlock } from '../../../ui/ScrollableBlock';
import { ago, dateTime } from '../../inbox/format';
import { useAdminMutation } from '../crud';

type Delivery = Schemas['WebhookDelivery'];
type Status = Delivery['status'];
const STATUSES: readonly Status[] = ['pending', 'succeeded', 'failed', 'dead', 'refused'];
const ANY = 'any';
export const STATUS_TONE: Record<Status, Tone> = {
  pending: 'neutral',
  succeeded: 'success',
  failed: 'warning',
  dead: 'danger',
  refused: 'danger',
};

function prettyJson(body: string): string {
  try {
    return JSON.stringify(JSON.parse(body), null, 2);
  } catch {
    return body;
  }
}

function DeliveryDialog({ webhookId, deliveryId, onClose }: { webhookId: number; deliveryId: number | null; onClose: () => void }) {
  const detail = useQuery({
    queryKey: keys.admin.delivery(webhookId, deliveryId ?? 0),
    queryFn: () =>
      unwrap(
        api.GET('/api/v1/webhooks/{id}/deliveries/{delivery_id}', { params: { path: { id: webhookId, delivery_id: deliveryId ?? 0 } } }),
      ),
    enabled: deliveryId !== null,
  });
  const retry = useAdminMutation(
    () =>
      unwrap(
        api.POST('/api/v1/webhooks/{id}/deliveries/{delivery_id}/retry', {
          params: { path: { id: webhookId, delivery_id: deliveryId ?? 0 } },
        }),
      ),
    {
      invalidate: [['webhooks', webhookId]],
      done: (result) => t('admin.webhooks.retried', { status: t(`admin.webhooks.status.${result.status}`) }),
    },
  );
  return (
    <Dialog open={deliveryId !== null} onOpenChange={(open) => (open ? null : onClose())} title={t('admin.webhooks.delivery')} size="lg">
      <QueryState query={detail}>
        {(data) => (
          <div className="form-stack">
            <div className="chips">
              <Badge tone={STATUS_TONE[data.status]}>{t(`admin.webhooks.status.${data.status}`)}</Badge>
              <code className="permission">{data.event_type}</code>
              <span className="cell-muted">{dateTime(data.created_at)}</span>
            </div>
            <dl className="details">
              <div className="details__row">
                <dt>{t('admin.webhooks.webhookId')}</dt>
                <dd>
                  <code>msg_{data.uuid}</code>
                </dd>
              </div>
              <div className="details__row">
                <dt>{t('admin.webhooks.attempts')}</dt>
                <dd>{data.attempts}</dd>
              </div>
              {data.next_attempt_at ? (
                <div className="details__row">
                  <dt>{t('admin.webhooks.nextAttempt')}</dt>
                  <dd>{dateTime(data.next_attempt_at)}</dd>
                </div>
              ) : null}
            </dl>
            <ErrorBanner message={retry.error?.message} />
            {data.status !== 'succeeded' ? (
              <div>
                <Button variant="primary" onClick={() => retry.mutate()} loading={retry.isPending}>
                  {t('admin.webhooks.retry')}
                </Button>
              </div>
            ) : null}
            <h3 className="form-section-title">{t('admin.webhooks.attemptsLog')}</h3>
            {data.attempts_log.length === 0 ? (
              <p className="cell-muted">{t('admin.webhooks.noAttempts')}</p>
            ) : (
              <ol className="attempts">
                {data.attempts_log.map((attempt) => (
                  <li key={attempt.attempt} className="attempt">
                    <span className="chips">
                      <strong>#{attempt.attempt}</strong>
                      <Badge tone={attempt.outcome === 'succeeded' ? 'success' : 'danger'}>
                        {t(`admin.webhooks.outcome.${attempt.outcome}`)}
                      </Badge>
                      {attempt.status_code !== null ? <span>HTTP {attempt.status_code}</span> : null}
                      <span className="cell-muted">{attempt.latency_ms} ms</span>
                      {attempt.manual ? <Badge>{t('admin.webhooks.manual')}</Badge> : null}
                      <span className="cell-muted">{dateTime(attempt.started_at)}</span>
                    </span>
                    {attempt.error ? <span className="danger-text">{attempt.error}</span> : null}
                    {attempt.response_snippet ? (
                      <ScrollableBlock label={t('admin.webhooks.answerOf', { n: attempt.attempt })} className="code-block">
                        {attempt.response_snippet}
                      </ScrollableBlock>
                    ) : null}
                  </li>
                ))}
              </ol>
            )}
            <h3 className="form-section-title">{t('admin.webhooks.body')}</h3>
            {data.request_body ? (
              <ScrollableBlock label={t('admin.webhooks.body')} className="code-block body-block">
                {prettyJson(data.request_body)}
              </ScrollableBlock>
            ) : (
              <p className="cell-muted">{t('admin.webhooks.noBody')}</p>
            )}
          </div>
        )}
      </QueryState>
    </Dialog>
  );
}

export function Deliveries({ webhookId }: { webhookId: number }) {
  const [page, setPage] = useState(1);
  const [status, setStatus] = useState<string>(ANY);
  const [open, setOpen] = useState<number | null>(null);
  const deliveries = useQuery({
    queryKey: keys.admin.deliveries(webhookId, { page, status }),
    queryFn: () =>
      unwrap(
        api.GET('/api/v1/webhooks/{id}/deliveries', {
          params: {
            path: { id: webhookId },
            query: { page, page_size: 25, ...(status === ANY ? {} : { status: STATUSES.filter((s) => s === status) }) },
          },
        }),
      ),
    placeholderData: keepPreviousData,
    refetchInterval: 10_000,
  });
  return (
    <Card
      title={t('admin.webhooks.deliveries')}
      actions={
        <Select
          size="sm"
          aria-label={t('admin.webhooks.filterStatus')}
          value={status}
          onValueChange={(value) => {
            setStatus(value);
            setPage(1);
          }}
          options={[
            { value: ANY, label: t('admin.webhooks.anyStatus') },
            ...STATUSES.map((s) => ({ value: s, label: t(`admin.webhooks.status.${s}`) })),
          ]}
        />
      }
    >
      <QueryState
        query={deliveries}
        isEmpty={(data) => data.results.length === 0}
        empty={<EmptyState title={t('admin.webhooks.noDeliveries')} hint={t('admin.webhooks.noDeliveriesHint')} />}
      >
        {(data) => (
          <>
            <DataTable
              caption={t('admin.webhooks.deliveries')}
              rows={data.results}
              rowKey={(delivery) => delivery.id}
              columns={[
                {
                  key: 'event',
                  header: t('admin.webhooks.event'),
                  render: (delivery) => (
                    <Button size="sm" variant="ghost" className="delivery-open" onClick={() => setOpen(delivery.id)}>
                      <code>{delivery.event_type}</code>
                    </Button>
                  ),
                },
                {
                  key: 'status',
                  header: t('admin.webhooks.statusCol'),
                  render: (d) => <Badge tone={STATUS_TONE[d.status]}>{t(`admin.webhooks.status.${d.status}`)}</Badge>,
                },
                {
                  key: 'code',
                  header: t('admin.webhooks.lastAnswer'),
                  optional: true,
                  render: (d) => (d.last_status_code !== null ? `HTTP ${d.last_status_code}` : (d.last_error ?? '—')),
                },
                { key: 'attempts', header: t('admin.webhooks.attempts'), numeric: true, optional: true, render: (d) => d.attempts },
                { key: 'when', header: t('admin.field.created'), render: (d) => <span className="cell-muted">{ago(d.created_at)}</span> },
              ]}
            />
            <Pager page={data.page} pages={data.total_pages} onPage={setPage} />
          </>
        )}
      </QueryState>
      <DeliveryDialog webhookId={webhookId} deliveryId={open} onClose={() => setOpen(null)} />
    </Card>
  );
}
