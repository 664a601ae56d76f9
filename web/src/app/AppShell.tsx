// The signed-in frame: the navigation (a sidebar, a drawer on a phone's width), the top bar with
// the account menu, and the screen of the current route. Live updates and idle detection run here.
import { AtSign, CircleDashed, Hash, Layers, Mail, Menu, MessageCircle, Moon, Sun, UserRound } from 'lucide-react';
import { Dialog as RadixDialog } from 'radix-ui';
import { type ReactNode, useState } from 'react';
import { NavLink, Outlet } from 'react-router';
import { useInboxes, useTeams } from '../api/reference';
import { WorkspaceNav } from '../features/admin/WorkspaceNav';
import { AccountMenu } from '../features/auth/AccountMenu';
import { can, useAgent } from '../features/auth/session';
import { useIdleAway } from '../features/auth/useIdleAway';
import { capped, useViewCount } from '../features/inbox/queries';
import { viewPath, type ListView } from '../features/inbox/views';
import { NotificationBell } from '../features/notifications/NotificationBell';
import { t } from '../i18n/t';
import { RealtimeProvider, useRealtime } from '../realtime/RealtimeProvider';
import { Button } from '../ui/Button';
import { teamEmoji } from '../ui/glyph';
import { toggleTheme, useTheme } from '../ui/theme';
import { CommandPalette } from './CommandPalette';
import { OriginNotice } from './OriginNotice';

function ViewLink({
  view,
  label,
  icon,
  onNavigate,
}: {
  view: ListView;
  label: string;
  icon?: ReactNode;
  onNavigate?: (() => void) | undefined;
}) {
  const { count, cap } = useViewCount(view);
  const unread = count?.unread ?? 0;
  const name = unread > 0 ? t('nav.withUnread', { label, n: capped(unread, cap) }) : null;
  // The link's name is its text: the label or, with unread conversations, "Mine, 3 unread" in a
  // visually hidden span that the label and the badge's bare number give way to (one span, so
  // no space creeps in before the comma; no aria-label, so the name starts with what is seen).
  // The open count is there for the eye only.
  return (
    <NavLink to={viewPath(view)} className="nav__link" onClick={onNavigate}>
      {icon ? (
        <span className="nav__icon" aria-hidden>
          {icon}
        </span>
      ) : null}
      <span className="nav__label" aria-hidden={name ? true : undefined}>
        {label}
      </span>
      {name ? <span className="visually-hidden">{name}</span> : null}
      {count?.open ? (
        <span className="nav__count" aria-hidden>
          {capped(count.open, cap)}
        </span>
      ) : null}
      {unread > 0 ? (
        <span className="nav__badge" aria-hidden data-testid="unread-badge">
          {capped(unread, cap)}
        </span>
      ) : null}
    </NavLink>
  );
}

function Navigation({ onNavigate }: { onNavigate?: () => void }) {
  const agent = useAgent();
  const teams = useTeams();
  const inboxes = useInboxes();
  const readAll = can(agent, 'conversations:read_all');
  const myTeams = new Set(agent.teams.map((team) => team.id));
  const visibleTeams = (teams.data ?? []).filter((team) => readAll || myTeams.has(team.id));
  return (
    <nav className="nav" aria-label={t('nav.primary')}>
      <h2 className="nav__heading">{t('nav.views')}</h2>
      <ViewLink view={{ kind: 'mine' }} label={t('nav.mine')} icon={<UserRound size={16} />} onNavigate={onNavigate} />
      <ViewLink view={{ kind: 'unassigned' }} label={t('nav.unassigned')} icon={<CircleDashed size={16} />} onNavigate={onNavigate} />
      <ViewLink view={{ kind: 'mentioned' }} label={t('nav.mentioned')} icon={<AtSign size={16} />} onNavigate={onNavigate} />
      {readAll ? <ViewLink view={{ kind: 'all' }} label={t('nav.all')} icon={<Layers size={16} />} onNavigate={onNavigate} /> : null}
      {visibleTeams.length > 0 ? <h2 className="nav__heading">{t('nav.teams')}</h2> : null}
      {visibleTeams.map((team) => (
        <ViewLink
          key={team.id}
          view={{ kind: 'team', id: team.id }}
          label={team.name}
          icon={teamEmoji(team) ? <span className="nav__emoji">{teamEmoji(team)}</span> : <Hash size={16} />}
          onNavigate={onNavigate}
        />
      ))}
      {readAll && (inboxes.data ?? []).length > 0 ? <h2 className="nav__heading">{t('nav.inboxes')}</h2> : null}
      {readAll
        ? (inboxes.data ?? []).map((inbox) => (
            <ViewLink
              key={inbox.id}
              view={{ kind: 'inbox', id: inbox.id }}
              label={inbox.name}
              icon={inbox.channel === 'email' ? <Mail size={16} /> : <MessageCircle size={16} />}
              onNavigate={onNavigate}
            />
          ))
        : null}
      <WorkspaceNav onNavigate={onNavigate} />
    </nav>
  );
}

export function AppShell() {
  return (
    <RealtimeProvider>
      <Shell />
    </RealtimeProvider>
  );
}

function Shell() {
  const [drawer, setDrawer] = useState(false);
  const theme = useTheme();
  const realtime = useRealtime();
  useIdleAway();

  return (
    <div className="shell">
      <a className="skip-link" href="#main">
        {t('app.skipToContent')}
      </a>
      <aside className="shell__sidebar">
        <div className="shell__brand">
          <img src="/favicon.svg" alt="" width={24} height={24} />
          <span>{t('app.name')}</span>
        </div>
        <Navigation />
      </aside>
      <RadixDialog.Root open={drawer} onOpenChange={setDrawer}>
        <RadixDialog.Portal>
          <RadixDialog.Overlay className="ui-dialog__overlay" />
          <RadixDialog.Content className="shell__drawer" aria-describedby={undefined}>
            <RadixDialog.Title className="shell__brand">{t('app.name')}</RadixDialog.Title>
            <Navigation onNavigate={() => setDrawer(false)} />
          </RadixDialog.Content>
        </RadixDialog.Portal>
      </RadixDialog.Root>
      <div className="shell__main">
        <header className="topbar">
          <Button className="topbar__menu" variant="ghost" icon aria-label={t('nav.openMenu')} onClick={() => setDrawer(true)}>
            <Menu size={16} aria-hidden />
          </Button>
          <div className="topbar__spacer" />
          {realtime.state === 'reconnecting' ? <output className="topbar__offline">{t('realtime.offline')}</output> : null}
          <CommandPalette />
          <NotificationBell />
          <Button variant="ghost" icon aria-label={t('theme.toggle')} onClick={toggleTheme} title={t('theme.toggle')}>
            {theme === 'dark' ? <Sun size={16} aria-hidden /> : <Moon size={16} aria-hidden />}
          </Button>
          <AccountMenu />
        </header>
        <OriginNotice />
        <main id="main" className="shell__content" tabIndex={-1}>
          <Outlet />
        </main>
      </div>
    </div>
  );
}
