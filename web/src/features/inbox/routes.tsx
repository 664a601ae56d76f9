import { lazy, Suspense } from 'react';
import type { RouteObject } from 'react-router';
import { Loading } from '../../ui/Spinner';
import { InboxPage, SelectHint } from './InboxPage';

// Loaded when a conversation opens: the lists (the first screen after sign-in) do not wait for it.
const ConversationView = lazy(() => import('../conversation/ConversationView').then((m) => ({ default: m.ConversationView })));

const detail: RouteObject[] = [
  { index: true, element: <SelectHint /> },
  {
    path: 'c/:uuid',
    element: (
      <Suspense fallback={<Loading />}>
        <ConversationView />
      </Suspense>
    ),
  },
];

/** The conversation lists; each shows the open conversation beside it (`…/c/:uuid`). */
export const inboxRoutes: RouteObject[] = [
  { path: '/inbox/mine', element: <InboxPage kind="mine" />, children: detail },
  { path: '/inbox/unassigned', element: <InboxPage kind="unassigned" />, children: detail },
  { path: '/inbox/all', element: <InboxPage kind="all" />, children: detail },
  { path: '/inbox/mentioned', element: <InboxPage kind="mentioned" />, children: detail },
  { path: '/inbox/team/:id', element: <InboxPage kind="team" />, children: detail },
  { path: '/inbox/channel/:id', element: <InboxPage kind="inbox" />, children: detail },
];
