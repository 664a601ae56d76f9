// Strings of who is viewing and replying (features/presence).
export const enPresence = {
  'presence.viewing': 'Also viewing',
  'presence.replying': 'replying…',
  'presence.viewerReplying': '{name}, replying',
  'presence.rowViewing': { one: '{name} is viewing', other: '{name} are viewing' },
  'presence.confirm.title': 'A colleague is replying',
  'presence.confirm.message': {
    one: '{name} is writing a reply to this conversation right now. Send yours anyway?',
    other: '{name} are writing replies to this conversation right now. Send yours anyway?',
  },
  'presence.confirm.send': 'Send anyway',
} as const;
