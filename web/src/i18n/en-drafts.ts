// Strings of drafts: colleagues' drafts above the composer (features/conversation/ColleagueDrafts)
// and the composer's restored attachments (features/conversation/draft.ts).
export const enDrafts = {
  'drafts.attachment': 'Attachment',
  'drafts.colleagues': 'Colleagues’ drafts',
  'drafts.colleague': '{name} has a draft ({when})',
  'drafts.colleagueNote': '{name} has a draft note ({when})',
  'drafts.more': { one: 'and {n} more colleague', other: 'and {n} more colleagues' },
} as const;
