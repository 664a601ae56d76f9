// The sidebar's second part: contacts, search, reports and administration, each shown only to
// agents whose permissions open it (the API refuses anyway; the link should not tempt).
import { ChartColumn, Contact, Search, Settings } from 'lucide-react';
import type { ReactNode } from 'react';
import { NavLink } from 'react-router';
import { t } from '../../i18n/t';
import { can, useAgent } from '../auth/session';
import { adminAreasFor } from './areas';

function Item({ to, icon, label, onNavigate }: { to: string; icon: ReactNode; label: string; onNavigate?: (() => void) | undefined }) {
  return (
    <NavLink to={to} className="nav__link" onClick={onNavigate}>
      <span className="nav__icon" aria-hidden>
        {icon}
      </span>
      <span className="nav__label">{label}</span>
    </NavLink>
  );
}

export function WorkspaceNav({ onNavigate }: { onNavigate?: (() => void) | undefined }) {
  const agent = useAgent();
  const admin = adminAreasFor(agent).length > 0;
  return (
    <>
      <h2 className="nav__heading">{t('admin.nav.workspace')}</h2>
      <Item to="/search" icon={<Search size={16} />} label={t('search.nav')} onNavigate={onNavigate} />
      {can(agent, 'contacts:read_all') ? (
        <Item to="/contacts" icon={<Contact size={16} />} label={t('contacts.title')} onNavigate={onNavigate} />
      ) : null}
      {can(agent, 'reports:manage') ? (
        <Item to="/reports" icon={<ChartColumn size={16} />} label={t('reports.title')} onNavigate={onNavigate} />
      ) : null}
      {admin ? <Item to="/admin" icon={<Settings size={16} />} label={t('admin.title')} onNavigate={onNavigate} /> : null}
    </>
  );
}
