import { NavLink } from 'react-router';
import { t } from '../../i18n/t';

/** The two report screens, as tabs that are links (each screen has its own address). */
export function ReportsTabs() {
  return (
    <nav className="report-tabs" aria-label={t('reports.title')}>
      <NavLink to="/reports" end className="report-tabs__tab">
        {t('reports.overview')}
      </NavLink>
      <NavLink to="/reports/service" className="report-tabs__tab">
        {t('reports.service')}
      </NavLink>
    </nav>
  );
}
