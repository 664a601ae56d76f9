import type { RouteObject } from 'react-router';
import { ConversationRedirect } from './ConversationRedirect';

/** A conversation by itself (links, the command palette); it opens inside the "Mine" view. */
export const conversationRoutes: RouteObject[] = [{ path: '/conversations/:uuid', element: <ConversationRedirect /> }];
