// Strings of working together: mentions in notes, the Mentions view and the followers panel.
export const enCollaboration = {
  'nav.mentioned': 'Mentions',
  'inbox.title.mentioned': 'Mentions',
  'mentions.suggestions': 'People and teams to mention',
  'mentions.none': 'No agent or team matches',
  'mentions.team': 'Team',
  'followers.title': 'Followers',
  'followers.none': 'Nobody follows this conversation',
  'followers.follow': 'Follow',
  'followers.unfollow': 'Unfollow',
  'followers.add': 'Add a follower',
  'followers.remove': 'Stop {name} following',
  'followers.you': '{name} (you)',
} as const;
