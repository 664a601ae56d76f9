// Mentions in private notes (docs/api.md, "Working together"): `@` in the note editor opens a
// list of agents and teams; the one picked becomes `<span data-mention-agent-id="7">@Ana Lima</span>`
// (or data-mention-team-id), the markup the server keeps and reads its mentions from. Only in
// note mode: in a reply the list never opens. The popup is ours (suggestion.render below), a
// listbox the arrow keys, Enter and Tab drive while the focus stays in the editor.
import { Mention } from '@tiptap/extension-mention';
import { ReactRenderer } from '@tiptap/react';
import type { SuggestionKeyDownProps, SuggestionProps } from '@tiptap/suggestion';
import { forwardRef, useImperativeHandle, useRef, useState } from 'react';
import { useAgents, useTeams } from '../../api/reference';
import { t } from '../../i18n/t';
import { Avatar } from '../../ui/Avatar';
import { teamEmoji } from '../../ui/glyph';
import { displayName } from '../auth/session';
import './mentions.css';

/** One agent or team the list offers; `id` is `agent:7` or `team:3` (the node's id attribute). */
export interface MentionCandidate {
  id: string;
  label: string;
  kind: 'agent' | 'team';
  avatarUrl: string | null;
}

const MAX_SHOWN = 8;

/** The candidates whose name (any word of it) starts with what was typed after `@`; all when nothing was. */
export function matchCandidates(candidates: readonly MentionCandidate[], query: string): MentionCandidate[] {
  const q = query.trim().toLowerCase();
  const hits =
    q === ''
      ? candidates
      : candidates.filter(
          (c) =>
            c.label
              .toLowerCase()
              .split(/\s+/)
              .some((word) => word.startsWith(q)) || c.label.toLowerCase().startsWith(q),
        );
  return hits.slice(0, MAX_SHOWN);
}

interface ListHandle {
  onKeyDown: (props: SuggestionKeyDownProps) => boolean;
}

type ListProps = Pick<SuggestionProps<MentionCandidate, MentionCandidate>, 'items' | 'command'>;

const MentionList = forwardRef<ListHandle, ListProps>(function MentionList({ items, command }, ref) {
  const [active, setActive] = useState(0);
  const shown = Math.min(active, Math.max(items.length - 1, 0));
  const pick = (index: number) => {
    const item = items[index];
    if (item) command(item);
  };
  useImperativeHandle(ref, () => ({
    onKeyDown: ({ event }) => {
      if (items.length === 0) return false;
      if (event.key === 'ArrowDown') setActive((shown + 1) % items.length);
      else if (event.key === 'ArrowUp') setActive((shown + items.length - 1) % items.length);
      else if (event.key === 'Enter' || event.key === 'Tab') pick(shown);
      else return false;
      return true;
    },
  }));
  if (items.length === 0)
    return (
      <output className="mention-list" aria-live="polite">
        {t('mentions.none')}
      </output>
    );
  return (
    <div className="mention-list" role="listbox" aria-label={t('mentions.suggestions')}>
      {items.map((item, index) => (
        <div
          key={item.id}
          id={`mention-option-${item.id.replace(':', '-')}`}
          role="option"
          aria-selected={index === shown}
          tabIndex={-1}
          className={`mention-list__option${index === shown ? ' mention-list__option--active' : ''}`}
          // The editor keeps the focus: a mouse press must not take it away before the click.
          onMouseDown={(event) => event.preventDefault()}
          onMouseEnter={() => setActive(index)}
          onClick={() => pick(index)}
          onKeyDown={() => {}}
        >
          {item.kind === 'agent' ? (
            <Avatar name={item.label} src={item.avatarUrl} size="sm" />
          ) : (
            <span className="mention-list__team" aria-hidden>
              {item.avatarUrl ?? '#'}
            </span>
          )}
          <span>{item.label}</span>
          {item.kind === 'team' ? <span className="mention-list__kind">{t('mentions.team')}</span> : null}
        </div>
      ))}
    </div>
  );
});

/** The popup beside the caret: fixed under the typed `@…`, inside the window. */
function place(element: HTMLElement, rect: DOMRect | null | undefined) {
  if (!rect) return;
  element.style.position = 'fixed';
  element.style.zIndex = '1000';
  element.style.left = `${Math.max(8, Math.min(rect.left, window.innerWidth - 280))}px`;
  const below = rect.bottom + 4;
  const height = element.offsetHeight || 240;
  element.style.top = `${below + height > window.innerHeight ? Math.max(8, rect.top - height - 4) : below}px`;
}

function renderPopup() {
  let renderer: ReactRenderer<ListHandle, ListProps> | null = null;
  return {
    onStart: (props: SuggestionProps<MentionCandidate, MentionCandidate>) => {
      renderer = new ReactRenderer(MentionList, { props, editor: props.editor });
      document.body.appendChild(renderer.element);
      place(renderer.element, props.clientRect?.());
    },
    onUpdate: (props: SuggestionProps<MentionCandidate, MentionCandidate>) => {
      renderer?.updateProps(props);
      if (renderer) place(renderer.element, props.clientRect?.());
    },
    onKeyDown: (props: SuggestionKeyDownProps) => {
      if (props.event.key === 'Escape') {
        renderer?.element.remove();
        return false;
      }
      return renderer?.ref?.onKeyDown(props) ?? false;
    },
    onExit: () => {
      renderer?.element.remove();
      renderer?.destroy();
      renderer = null;
    },
  };
}

/** `agent:7` → ['agent', '7']; anything else is no mention. */
function parts(id: unknown): ['agent' | 'team', string] | null {
  const match = /^(agent|team):([1-9][0-9]{0,8})$/.exec(String(id));
  return match ? [match[1] as 'agent' | 'team', match[2] as string] : null;
}

/** The mention node: its HTML is exactly the markup the server reads (and parsed back from a saved draft). */
const NoteMention = Mention.extend({
  addAttributes() {
    return {
      id: {
        default: null,
        parseHTML: (element: HTMLElement) => {
          const agent = element.getAttribute('data-mention-agent-id');
          return agent ? `agent:${agent}` : `team:${element.getAttribute('data-mention-team-id') ?? ''}`;
        },
        renderHTML: () => ({}),
      },
      label: { default: null, parseHTML: (element: HTMLElement) => (element.textContent ?? '').replace(/^@/, ''), renderHTML: () => ({}) },
      // Backspace over a mention gives back its trigger character (the extension reads it).
      mentionSuggestionChar: { default: '@', parseHTML: () => '@', renderHTML: () => ({}) },
    };
  },
  parseHTML() {
    return [{ tag: 'span[data-mention-agent-id]' }, { tag: 'span[data-mention-team-id]' }];
  },
  renderHTML({ node }) {
    const id = parts(node.attrs['id']);
    const label = `@${String(node.attrs['label'] ?? '')}`;
    return id ? ['span', { [`data-mention-${id[0]}-id`]: id[1] }, label] : ['span', {}, label];
  },
  renderText({ node }) {
    return `@${String(node.attrs['label'] ?? '')}`;
  },
});

/**
 * The editor extension of mentions, made once per editor: the candidates (enabled agents, then
 * teams) and whether the editor is in note mode are read when `@` is typed.
 */
export function useNoteMentions(inNote: () => boolean) {
  const agents = useAgents();
  const teams = useTeams();
  const candidates = useRef<MentionCandidate[]>([]);
  candidates.current = [
    ...(agents.data ?? [])
      .filter((agent) => agent.enabled)
      .map((agent) => ({ id: `agent:${agent.id}`, label: displayName(agent), kind: 'agent' as const, avatarUrl: agent.avatar_url })),
    ...(teams.data ?? []).map((team) => ({
      id: `team:${team.id}`,
      label: team.name,
      kind: 'team' as const,
      avatarUrl: teamEmoji(team) || null,
    })),
  ];
  const noteMode = useRef(inNote);
  noteMode.current = inNote;
  const [extension] = useState(() =>
    NoteMention.configure({
      suggestion: {
        char: '@',
        allow: () => noteMode.current(),
        items: ({ query }: { query: string }) => matchCandidates(candidates.current, query),
        render: renderPopup,
      },
    }),
  );
  return extension;
}
