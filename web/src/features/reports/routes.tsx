import type { RouteObject } from 'react-router';

/** The reports (reports:manage), each screen its own chunk. */
export const reportRoutes: RouteObject[] = [
  { path: '/reports', lazy: async () => ({ Component: (await import('./OverviewPage')).OverviewPage }) },
  { path: '/reports/service', lazy: async () => ({ Component: (await import('./ServicePage')).ServicePage }) },
];
