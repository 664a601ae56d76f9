import type { Conversation } from '../../api/client';
import { t } from '../../i18n/t';
import { ago, dateTime } from '../inbox/format';

const SCALE = 5;

/** The conversation's CSAT survey: the contact's rating and comment once answered (kept live by the socket), else that it waits. */
export function CsatPanel({ conversation: c }: { conversation: Conversation }) {
  const survey = c.csat;
  if (!survey) return null;
  return (
    <section className="details__section" aria-labelledby="details-csat">
      <h3 id="details-csat" className="details__label">
        {t('sidebar.csat')}
      </h3>
      {survey.rating === null || survey.submitted_at === null ? (
        <p className="details__note" title={dateTime(survey.created_at)}>
          {t('sidebar.csat.waiting', { when: ago(survey.created_at) })}
        </p>
      ) : (
        <>
          <p className="csat-rating" title={dateTime(survey.submitted_at)}>
            <span aria-hidden="true">
              {'★'.repeat(survey.rating)}
              <span className="csat-rating__rest">{'★'.repeat(SCALE - survey.rating)}</span>
            </span>
            <span>{t('sidebar.csat.rating', { rating: survey.rating, scale: SCALE })}</span>
          </p>
          {survey.feedback ? <blockquote className="csat-feedback">{survey.feedback}</blockquote> : null}
          <p className="details__note">{t('sidebar.csat.answered', { when: ago(survey.submitted_at) })}</p>
        </>
      )}
    </section>
  );
}
