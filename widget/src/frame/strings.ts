// Every text the chat frame shows, in one place (English; a translation replaces this table).
// `{name}` marks a value filled in by `text()`.

const en = {
  chat: 'Chat',
  close: 'Close chat',
  back: 'Back to conversations',
  loading: 'Loading…',
  unavailable: 'The chat is unavailable right now. Please try again later.',
  yourConversations: 'Your conversations',
  continueConversation: 'Continue the conversation',
  noMessagesYet: 'No messages yet',
  you: 'You',
  team: 'Support team',
  chattingWith: 'You are chatting with {name}',
  awayNow: 'We are away right now.',
  /** `when`: the next opening in the visitor's own time zone, which the text says. */
  backAt: 'We are back {when} (your time).',
  officeHours: 'Office hours ({zone})',
  closedDay: 'closed',
  message: 'Message',
  messagePlaceholder: 'Write a message…',
  send: 'Send',
  sending: 'Sending…',
  attach: 'Attach a file',
  uploading: 'Uploading {name}…',
  uploadDisabled: 'Files cannot be sent in this chat.',
  fileTooLarge: '{name} is larger than {max} MB.',
  fileTypeRefused: '{name}: files of this type cannot be sent.',
  fileEmpty: '{name} is empty.',
  typing: '{name} is typing…',
  someoneTyping: 'An agent is typing…',
  newMessages: 'New messages',
  agentSaid: '{name}:',
  prechatTitle: 'Before we start',
  required: '(required)',
  firstName: 'First name',
  lastName: 'Last name',
  firstMessage: 'How can we help?',
  start: 'Start the conversation',
  fieldRequired: '{label} is required.',
  invalidEmail: '{label} must be a valid email address.',
  conversationClosed: 'This conversation is closed.',
  connecting: 'Reconnecting…',
  sendFailed: 'Your message could not be sent: {reason}',
  attachment: 'Attachment: {name} ({size})',
  fileSent: 'A file',
  rateTitle: 'How did we do?',
  rateValue: '{n} out of 5',
  rateFeedback: 'Anything to add? (optional)',
  rateSubmit: 'Send rating',
  rateThanks: 'Thank you for your rating!',
  rateClosed: 'Rating closed.',
  poweredBy: 'Powered by Parley',
  statusResolved: 'This conversation was resolved. Write again to reopen it.',
  previewNotice: 'Preview: messages cannot be sent here.',
  previewAgent: 'Alex',
  previewReply: 'Hi! Thanks for reaching out. How can we help you today?',
  previewQuestion: 'Hello! I have a question about my order.',
  previewAnswer: 'Of course. Could you tell me the order number?',
} as const;

export type StringKey = keyof typeof en;

/** The text for `key`, with its `{name}` parts filled from `values`. */
export function text(key: StringKey, values: Record<string, string | number> = {}): string {
  return en[key].replace(/\{(\w+)\}/g, (whole, name: string) => (name in values ? String(values[name]) : whole));
}

/** A file size for people: 512 B, 12 KB, 3.4 MB. */
export function fileSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}
