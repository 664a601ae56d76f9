import type { Conversation } from '../../api/client';
import { t } from '../../i18n/t';
import { Badge } from '../../ui/Badge';
import { ago, dateTime } from '../inbox/format';
import { SlaBadge } from '../inbox/ConversationRow';
import { useSla } from './queries';

const METRICS = ['first_response', 'next_response', 'resolution'] as const;

/** The applied SLA's deadlines: met (when), breached, due (how soon), paused while waiting, or none owed. */
export function SlaPanel({ conversation: c }: { conversation: Conversation }) {
  const sla = useSla(c.uuid, c.applied_sla_id !== null);
  return (
    <section className="details__section" aria-labelledby="details-sla">
      <h3 id="details-sla" className="details__label">
        {t('sidebar.sla')}
      </h3>
      {c.applied_sla_id === null || !sla.data ? (
        <p className="details__note">{t('sidebar.sla.none')}</p>
      ) : (
        <dl className="details__sla">
          {METRICS.map((metric) => {
            const state = sla.data?.[metric];
            if (!state) return null;
            let value: React.ReactNode;
            if (state.met_at) value = <Badge tone="success">{t('sidebar.sla.met', { when: ago(state.met_at) })}</Badge>;
            else if (state.breached) value = <Badge tone="danger">{t('sidebar.sla.breached')}</Badge>;
            else if (state.deadline_at) value = <SlaBadge deadline={state.deadline_at} />;
            else {
              // No deadline: frozen while the conversation waits; otherwise none is owed (a next response
              // is owed only once the contact writes after a reply).
              const note = c.status_category === 'waiting' ? 'sidebar.sla.paused' : 'sidebar.sla.notOwed';
              value = <span className="details__note">{t(note)}</span>;
            }
            return (
              <div key={metric}>
                <dt title={state.deadline_at ? dateTime(state.deadline_at) : undefined}>{t(`sidebar.sla.${metric}`)}</dt>
                <dd>{value}</dd>
              </div>
            );
          })}
        </dl>
      )}
    </section>
  );
}
