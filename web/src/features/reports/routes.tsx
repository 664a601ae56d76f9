import type { RouteObject } from 'react-router';

export const reportRoutes: RouteObject[] = [];
