// Ctrl/Cmd+K (or "/") opens a list of commands filtered as one types: go to a view, act on the
// open conversation, switch theme or availability, sign out; with two letters or more, the
// conversations the search finds too. Screens add commands with useCommands().
import { useQuery } from '@tanstack/react-query';
import { Dialog as RadixDialog } from 'radix-ui';
import { useEffect, useId, useMemo, useState, useSyncExternalStore } from 'react';
import { useNavigate } from 'react-router';
import { api, unwrap } from '../api/client';
import { useTeams } from '../api/reference';
import { AVAILABILITIES } from '../features/auth/AccountMenu';
import { can, useAgent, useLogout, useSetAvailability } from '../features/auth/session';
import { isTypingTarget } from '../features/inbox/shortcuts';
import { t } from '../i18n/t';
import { Button } from '../ui/Button';
import { toggleTheme } from '../ui/theme';

export interface Command {
  id: string;
  label: string;
  run: () => void;
}

const extra = new Map<string, readonly Command[]>();
const listeners = new Set<() => void>();
let version = 0;
function emit() {
  version += 1;
  for (const listener of listeners) listener();
}

/** Commands a screen offers while it is shown (the open conversation's "resolve"…). */
export function useCommands(owner: string, commands: readonly Command[]): void {
  useEffect(() => {
    extra.set(owner, commands);
    emit();
    return () => {
      extra.delete(owner);
      emit();
    };
  }, [owner, commands]);
}

function useBaseCommands(): Command[] {
  const navigate = useNavigate();
  const agent = useAgent();
  const teams = useTeams();
  const setAvailability = useSetAvailability();
  const logout = useLogout();
  return useMemo(() => {
    const views: Command[] = [
      { id: 'go-mine', label: t('palette.goto', { name: t('nav.mine') }), run: () => navigate('/inbox/mine') },
      { id: 'go-unassigned', label: t('palette.goto', { name: t('nav.unassigned') }), run: () => navigate('/inbox/unassigned') },
      ...(can(agent, 'conversations:read_all')
        ? [{ id: 'go-all', label: t('palette.goto', { name: t('nav.all') }), run: () => navigate('/inbox/all') }]
        : []),
      ...(teams.data ?? []).map((team) => ({
        id: `go-team-${team.id}`,
        label: t('palette.goto', { name: team.name }),
        run: () => navigate(`/inbox/team/${team.id}`),
      })),
    ];
    return [
      ...views,
      { id: 'theme', label: t('palette.toggleTheme'), run: toggleTheme },
      ...AVAILABILITIES.map((status) => ({
        id: `availability-${status}`,
        label: t('palette.setAvailability', { status: t(`availability.${status}`) }),
        run: () => setAvailability.mutate({ status, source: 'user' }),
      })),
      { id: 'logout', label: t('palette.logout'), run: () => logout.mutate() },
    ];
  }, [navigate, agent, teams.data, setAvailability, logout]);
}

export function CommandPalette() {
  const [open, setOpen] = useState(false);
  const [query, setQuery] = useState('');
  const [active, setActive] = useState(0);
  const navigate = useNavigate();
  const base = useBaseCommands();
  const listId = useId();
  useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => version,
  );
  const search = useQuery({
    queryKey: ['search', query],
    queryFn: () => unwrap(api.GET('/api/v1/search', { params: { query: { q: query, limit: 8 } } })),
    enabled: open && query.trim().length >= 2,
    staleTime: 10_000,
  });

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if ((event.key === 'k' || event.key === 'K') && (event.metaKey || event.ctrlKey)) {
        event.preventDefault();
        setOpen((value) => !value);
      } else if (event.key === '/' && !event.ctrlKey && !event.metaKey && !isTypingTarget(event.target)) {
        event.preventDefault();
        setOpen(true);
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);

  const needle = query.trim().toLowerCase();
  const commands: Command[] = [...[...extra.values()].flat(), ...base].filter((c) => !needle || c.label.toLowerCase().includes(needle));
  const hits: Command[] = (search.data?.conversations ?? []).map((hit) => ({
    id: `conversation-${hit.uuid}`,
    label: `#${hit.reference_number} ${hit.subject}`,
    run: () => navigate(`/conversations/${hit.uuid}`),
  }));
  const all = [...commands, ...hits];
  const current = Math.min(active, Math.max(all.length - 1, 0));

  const close = () => {
    setOpen(false);
    setQuery('');
    setActive(0);
  };
  const run = (command: Command | undefined) => {
    if (!command) return;
    close();
    command.run();
  };

  return (
    <>
      <Button variant="ghost" size="sm" className="topbar__palette" onClick={() => setOpen(true)} aria-keyshortcuts="Control+K Meta+K">
        {t('common.search')} <kbd className="ui-kbd">⌘K</kbd>
      </Button>
      <RadixDialog.Root open={open} onOpenChange={(value) => (value ? setOpen(true) : close())}>
        <RadixDialog.Portal>
          <RadixDialog.Overlay className="ui-dialog__overlay" />
          <RadixDialog.Content className="ui-dialog palette" aria-describedby={undefined}>
            <RadixDialog.Title className="visually-hidden">{t('palette.title')}</RadixDialog.Title>
            <input
              className="ui-input palette__input"
              role="combobox"
              aria-expanded
              aria-controls={listId}
              aria-activedescendant={all[current] ? `${listId}-${current}` : undefined}
              aria-label={t('palette.placeholder')}
              placeholder={t('palette.placeholder')}
              value={query}
              onChange={(event) => {
                setQuery(event.target.value);
                setActive(0);
              }}
              onKeyDown={(event) => {
                if (event.key === 'ArrowDown') {
                  event.preventDefault();
                  setActive(Math.min(current + 1, all.length - 1));
                } else if (event.key === 'ArrowUp') {
                  event.preventDefault();
                  setActive(Math.max(current - 1, 0));
                } else if (event.key === 'Enter') {
                  event.preventDefault();
                  run(all[current]);
                }
              }}
            />
            <div className="palette__list" id={listId} role="listbox" aria-label={t('palette.title')}>
              {all.length === 0 ? <p className="palette__empty">{t('palette.empty')}</p> : null}
              {all.map((command, index) => (
                // biome-ignore lint/a11y/useKeyWithClickEvents: the input's arrow keys and Enter drive the list
                <div
                  key={command.id}
                  tabIndex={-1}
                  id={`${listId}-${index}`}
                  role="option"
                  aria-selected={index === current}
                  className={`palette__item${index === current ? ' palette__item--active' : ''}`}
                  onMouseEnter={() => setActive(index)}
                  onClick={() => run(command)}
                >
                  {command.label}
                </div>
              ))}
            </div>
          </RadixDialog.Content>
        </RadixDialog.Portal>
      </RadixDialog.Root>
    </>
  );
}
