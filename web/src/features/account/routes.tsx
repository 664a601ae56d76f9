import type { RouteObject } from 'react-router';

/** The signed-in agent's own account: password, two-factor sign-in, sessions. */
export const accountRoutes: RouteObject[] = [
  { path: '/account', lazy: async () => ({ Component: (await import('./AccountPage')).AccountPage }) },
];
