// The route table: public screens, then the signed-in shell with every feature's routes.
// A feature adds its screens in features/<area>/routes.tsx and is listed here once.
import { createBrowserRouter, Navigate, type RouteObject } from 'react-router';
import { setUnauthorizedHandler } from '../api/client';
import { keys } from '../api/keys';
import { accountRoutes } from '../features/account/routes';
import { adminRoutes } from '../features/admin/routes';
import { publicPaths, publicRoutes } from '../features/auth/routes';
import { RequireSession } from '../features/auth/RequireSession';
import { forgetAllButMe } from '../features/auth/session';
import { contactRoutes } from '../features/contacts/routes';
import { conversationRoutes } from '../features/conversation/routes';
import { inboxRoutes } from '../features/inbox/routes';
import { reportRoutes } from '../features/reports/routes';
import { searchRoutes } from '../features/search/routes';
import { AppShell } from './AppShell';
import { NotFound, RouteError } from './RouteError';
import { queryClient } from './query-client';

/** Signed-in screens, rendered inside the shell (sidebar, top bar). */
const appRoutes: RouteObject[] = [
  { index: true, element: <Navigate to="/inbox/mine" replace /> },
  ...inboxRoutes,
  ...conversationRoutes,
  ...contactRoutes,
  ...searchRoutes,
  ...reportRoutes,
  ...adminRoutes,
  ...accountRoutes,
];

const routes: RouteObject[] = [
  ...publicRoutes,
  {
    element: <RequireSession />,
    errorElement: <RouteError />,
    children: [{ element: <AppShell />, children: [...appRoutes, { path: '*', element: <NotFound /> }] }],
  },
];

export const router = createBrowserRouter(routes);

// A 401 anywhere means the session ended: forget the agent and everything read as them (the
// next agent to sign in on this tab must not see it), and go to the sign-in page. The rest of
// the cache goes once the signed-in screens are gone, so they do not fetch it again meanwhile.
setUnauthorizedHandler(() => {
  if (publicPaths.includes(router.state.location.pathname)) return;
  queryClient.setQueryData(keys.me, null);
  const next = router.state.location.pathname + router.state.location.search;
  void router.navigate(`/login?next=${encodeURIComponent(next)}`, { replace: true }).then(() => forgetAllButMe(queryClient));
});
