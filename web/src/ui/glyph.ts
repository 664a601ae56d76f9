// A team's emoji, shown before its name in the navigation, lists and pickers. The app ships an
// emoji font (ui/emoji.css: Noto Color Emoji, split by Unicode range, each part fetched only when a
// character of it is on screen), so a browser without one of its own still draws it.
import '@fontsource/noto-color-emoji';

/** The emoji a team chose, or '' when it has none. */
export function teamEmoji(team: { emoji: string }): string {
  return team.emoji.trim();
}

/** "🚨 Escalations": a team as pickers name it. */
export function teamLabel(team: { emoji: string; name: string }): string {
  return `${teamEmoji(team)} ${team.name}`.trim();
}
