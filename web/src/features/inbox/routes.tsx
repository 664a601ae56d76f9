import type { RouteObject } from 'react-router';
import { ConversationView } from '../conversation/ConversationView';
import { InboxPage, SelectHint } from './InboxPage';

const detail: RouteObject[] = [
  { index: true, element: <SelectHint /> },
  { path: 'c/:uuid', element: <ConversationView /> },
];

/** The conversation lists; each shows the open conversation beside it (`…/c/:uuid`). */
export const inboxRoutes: RouteObject[] = [
  { path: '/inbox/mine', element: <InboxPage kind="mine" />, children: detail },
  { path: '/inbox/unassigned', element: <InboxPage kind="unassigned" />, children: detail },
  { path: '/inbox/all', element: <InboxPage kind="all" />, children: detail },
  { path: '/inbox/team/:id', element: <InboxPage kind="team" />, children: detail },
  { path: '/inbox/channel/:id', element: <InboxPage kind="inbox" />, children: detail },
];
