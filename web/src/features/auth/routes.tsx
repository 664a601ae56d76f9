import type { RouteObject } from 'react-router';
import { ForgotPasswordPage } from './ForgotPasswordPage';
import { LoginPage } from './LoginPage';
import { SetPasswordPage } from './SetPasswordPage';
import { SetupPage } from './SetupPage';

/** Screens shown without a session. */
export const publicRoutes: RouteObject[] = [
  { path: '/login', element: <LoginPage /> },
  { path: '/setup', element: <SetupPage /> },
  { path: '/forgot-password', element: <ForgotPasswordPage /> },
  { path: '/set-password', element: <SetPasswordPage /> },
];

/** Their paths: a 401 there is expected, never a reason to go to the sign-in page. */
export const publicPaths: readonly string[] = publicRoutes.flatMap((route) => (route.path ? [route.path] : []));
