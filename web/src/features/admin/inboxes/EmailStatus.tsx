// How the mailbox reader is doing (read every few seconds while shown): its state, when it last
// checked, its last error; and the mails it passed over, with why.
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { api, unwrap } from '../../../api/client';
import { keys } from '../../../api/keys';
import { t } from '../../../i18n/t';
import { Badge, type Tone } from '../../../ui/Badge';
import { DataTable } from '../../../ui/DataTable';
import { EmptyState } from '../../../ui/EmptyState';
import { Card } from '../../../ui/Page';
import { Pager } from '../../../ui/Pager';
import { QueryState } from '../../../ui/QueryState';
import { ago, dateTime } from '../../inbox/format';

const TONE: Record<string, Tone> = {
  idle: 'success',
  polling: 'success',
  reading: 'accent',
  connecting: 'warning',
  failing: 'danger',
  stopped: 'neutral',
};

export function EmailStatus({ inboxId }: { inboxId: number }) {
  const status = useQuery({
    queryKey: keys.admin.emailStatus(inboxId),
    queryFn: () => unwrap(api.GET('/api/v1/inboxes/{id}/email/status', { params: { path: { id: inboxId } } })),
    refetchInterval: 5000,
  });
  const [page, setPage] = useState(1);
  const skipped = useQuery({
    queryKey: keys.admin.emailSkipped(inboxId, page),
    queryFn: () =>
      unwrap(api.GET('/api/v1/inboxes/{id}/email/skipped', { params: { path: { id: inboxId }, query: { page, page_size: 20 } } })),
    placeholderData: keepPreviousData,
  });
  return (
    <div className="form-stack">
      <p className="muted">{t('admin.inboxes.statusIntro')}</p>
      <Card title={t('admin.inboxes.reader')}>
        <QueryState query={status}>
          {(data) => (
            <dl className="details">
              <div className="details__row">
                <dt>{t('admin.inboxes.state')}</dt>
                <dd>
                  <Badge tone={TONE[data.state] ?? 'neutral'}>{t(`admin.inboxes.state.${data.state}`)}</Badge>
                </dd>
              </div>
              <div className="details__row">
                <dt>{t('admin.inboxes.lastChecked')}</dt>
                <dd>{data.last_checked_at ? `${ago(data.last_checked_at)} (${dateTime(data.last_checked_at)})` : '—'}</dd>
              </div>
              <div className="details__row">
                <dt>{t('admin.inboxes.connectedAt')}</dt>
                <dd>{data.connected_at ? dateTime(data.connected_at) : '—'}</dd>
              </div>
              <div className="details__row">
                <dt>{t('admin.inboxes.lastError')}</dt>
                <dd>
                  {data.last_error ? (
                    <span className="danger-text">
                      {data.last_error}
                      {data.last_error_at ? ` · ${ago(data.last_error_at)}` : ''}
                    </span>
                  ) : (
                    t('common.none')
                  )}
                </dd>
              </div>
              <div className="details__row">
                <dt>{t('admin.inboxes.holder')}</dt>
                <dd className="cell-muted">{data.holder ?? '—'}</dd>
              </div>
              {data.cursor ? (
                <div className="details__row">
                  <dt>{t('admin.inboxes.cursor')}</dt>
                  <dd className="cell-muted">
                    {t('admin.inboxes.cursorValue', { mailbox: data.cursor.mailbox, uid: data.cursor.last_uid })}
                  </dd>
                </div>
              ) : null}
            </dl>
          )}
        </QueryState>
      </Card>
      <Card title={t('admin.inboxes.skipped')}>
        <QueryState
          query={skipped}
          isEmpty={(data) => data.results.length === 0}
          empty={<EmptyState title={t('admin.inboxes.noSkipped')} />}
        >
          {(data) => (
            <>
              <DataTable
                caption={t('admin.inboxes.skipped')}
                rows={data.results}
                rowKey={(mail) => mail.id}
                columns={[
                  {
                    key: 'mail',
                    header: t('admin.inboxes.mail'),
                    render: (mail) => (
                      <span>
                        <span className="row-name">{mail.subject || t('inbox.noSubject')}</span>
                        <span className="row-sub">{mail.sender ?? ''}</span>
                      </span>
                    ),
                  },
                  { key: 'reason', header: t('admin.inboxes.reason'), render: (mail) => mail.reason },
                  {
                    key: 'when',
                    header: t('admin.field.created'),
                    optional: true,
                    render: (mail) => <span className="cell-muted">{dateTime(mail.created_at)}</span>,
                  },
                ]}
              />
              <Pager page={data.page} pages={data.total_pages} onPage={setPage} />
            </>
          )}
        </QueryState>
      </Card>
    </div>
  );
}
