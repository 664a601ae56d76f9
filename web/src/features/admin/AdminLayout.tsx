// The administration frame: a menu of the areas the agent may manage beside the open screen
// (on a phone, the menu is the admin home and each screen links back to it).
import { Link, NavLink, Outlet, useLocation } from 'react-router';
import { t } from '../../i18n/t';
import { EmptyState } from '../../ui/EmptyState';
import { Card, Page } from '../../ui/Page';
import { can, useAgent } from '../auth/session';
import { ADMIN_AREAS, ADMIN_GROUPS, adminAreasFor } from './areas';
import './admin.css';

export function AdminLayout() {
  const agent = useAgent();
  const areas = adminAreasFor(agent);
  // An area opened by its address without the permission says so, rather than failing on a 403.
  const segment = useLocation().pathname.split('/')[2];
  const area = ADMIN_AREAS.find((candidate) => candidate.path === segment);
  const allowed = !area || can(agent, area.permission);
  return (
    <div className="admin">
      <nav className="admin__nav" aria-label={t('admin.menu')}>
        {ADMIN_GROUPS.map((group) => {
          const inGroup = areas.filter((area) => area.group === group);
          if (inGroup.length === 0) return null;
          return (
            <div key={group} className="admin__group">
              <h2 className="nav__heading">{t(`admin.group.${group}`)}</h2>
              {inGroup.map((area) => (
                <NavLink key={area.path} to={`/admin/${area.path}`} className="nav__link">
                  <span className="nav__label">{t(area.label)}</span>
                </NavLink>
              ))}
            </div>
          );
        })}
      </nav>
      <div className="admin__content">
        {allowed ? <Outlet /> : <EmptyState title={t('admin.forbidden')} hint={t('admin.forbiddenHint')} />}
      </div>
    </div>
  );
}

export function AdminHome() {
  const areas = adminAreasFor(useAgent());
  return (
    <Page title={t('admin.title')} description={t('admin.intro')}>
      {areas.length === 0 ? <p>{t('admin.nothing')}</p> : null}
      {ADMIN_GROUPS.map((group) => {
        const inGroup = areas.filter((area) => area.group === group);
        if (inGroup.length === 0) return null;
        return (
          <Card key={group} title={t(`admin.group.${group}`)}>
            <ul className="admin-home">
              {inGroup.map((area) => (
                <li key={area.path}>
                  <Link to={`/admin/${area.path}`} className="admin-home__link">
                    <span className="admin-home__label">{t(area.label)}</span>
                    <span className="admin-home__hint">{t(area.hint)}</span>
                  </Link>
                </li>
              ))}
            </ul>
          </Card>
        );
      })}
    </Page>
  );
}
