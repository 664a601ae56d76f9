import type { RouteObject } from 'react-router';
import { LoginPage } from './LoginPage';
import { SetupPage } from './SetupPage';

/** Screens shown without a session. */
export const publicRoutes: RouteObject[] = [
  { path: '/login', element: <LoginPage /> },
  { path: '/setup', element: <SetupPage /> },
];
