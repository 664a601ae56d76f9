// The mention markup of private notes (docs/api.md, "Working together"):
// `<span data-mention-agent-id="7">@Ana</span>` or `data-mention-team-id`. The sanitiser keeps
// these two attributes (and no other data-*), so the stored HTML is the one source of a note's
// mentions. Public replies carry no mentions: their markup is kept but notifies nobody.

/** At most this many agents and teams are taken from one note. */
export const MAX_MENTIONS = 50;

const MENTION = /data-mention-(agent|team)-id="(\d{1,9})"/g;

export interface Mentions {
  agentIds: number[];
  teamIds: number[];
}

/** The agents and teams a sanitised note mentions, each once, in order of appearance. */
export function mentionsIn(html: string): Mentions {
  const agents = new Set<number>();
  const teams = new Set<number>();
  if (!html.includes('data-mention-')) return { agentIds: [], teamIds: [] };
  for (const match of html.matchAll(MENTION)) {
    if (agents.size + teams.size >= MAX_MENTIONS) break;
    const id = Number(match[2]);
    if (id < 1) continue;
    (match[1] === 'agent' ? agents : teams).add(id);
  }
  return { agentIds: [...agents], teamIds: [...teams] };
}
