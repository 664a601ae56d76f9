import type { RouteObject } from 'react-router';

/** The contacts list and one contact; loaded with their screen (a chunk of their own). */
export const contactRoutes: RouteObject[] = [
  { path: '/contacts', lazy: async () => ({ Component: (await import('./ContactsPage')).ContactsPage }) },
  { path: '/contacts/:id', lazy: async () => ({ Component: (await import('./ContactPage')).ContactPage }) },
];
