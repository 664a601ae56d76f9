// The caller's notifications and notification preferences (docs/api.md, "Notification API and
// preferences"). Any signed-in agent, by session or API credentials: every route acts on the
// caller's own rows only, so no permission is needed and another agent's id is a 404.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { AppDeps } from '../deps.ts';
import { principalOf } from '../http/access.ts';
import { Envelope, errors, ok, Paged, pagedResult, pageRequest, TrueEnvelope } from '../http/schemas.ts';
import {
  MarkedCount,
  NotificationListQuery,
  NotificationParams,
  NotificationRecord,
  NotificationSettingsBody,
  NotificationSettingsRecord,
  UnreadCount,
} from './notifications.schema.ts';
import * as notifications from './notifications.service.ts';

export function notificationsRoutes(deps: AppDeps): FastifyPluginAsyncTypebox {
  return async (app) => {
    const tags = ['Notifications'];
    app.get(
      '/notifications',
      {
        schema: {
          tags,
          summary: 'List my notifications (paged)',
          description:
            'The caller’s notifications shown in the app, about conversations they may still read, newest first (id breaks ties). `unread=true`: only those not read yet. Kept 90 days.',
          querystring: NotificationListQuery,
          response: { 200: Envelope(Paged(NotificationRecord)), ...errors(400, 401) },
        },
      },
      async (request) => {
        const page = pageRequest(request.query);
        const { rows, total } = await notifications.listNotifications(deps, principalOf(request), page, request.query.unread === true);
        return ok(pagedResult(rows, total, page));
      },
    );
    app.get(
      '/notifications/unread-count',
      {
        schema: {
          tags,
          summary: 'How many of my notifications are unread',
          description: 'The number the bell shows (conversations the caller may still read). Cheap enough to ask on every page load.',
          response: { 200: Envelope(UnreadCount), ...errors(401) },
        },
      },
      async (request) => ok({ count: await notifications.unreadCount(deps, principalOf(request)) }),
    );
    app.post(
      '/notifications/read-all',
      {
        schema: {
          tags,
          summary: 'Mark all my notifications read',
          description: 'Answers how many were unread. Those read already keep the time they were read.',
          response: { 200: Envelope(MarkedCount), ...errors(401, 403) },
        },
      },
      async (request) => ok({ count: await notifications.markAllRead(deps, principalOf(request)) }),
    );
    app.put(
      '/notifications/:id/read',
      {
        schema: {
          tags,
          summary: 'Mark a notification read',
          description:
            'Answers the notification. Marking a read one again keeps the time it was first read. Another agent’s notification, or an unknown id, is a 404.',
          params: NotificationParams,
          response: { 200: Envelope(NotificationRecord), ...errors(401, 403, 404) },
        },
      },
      async (request) => ok(await notifications.markNotification(deps, principalOf(request), request.params.id, true)),
    );
    app.put(
      '/notifications/:id/unread',
      {
        schema: {
          tags,
          summary: 'Mark a notification unread',
          description: 'Answers the notification (`read_at: null`). Another agent’s notification, or an unknown id, is a 404.',
          params: NotificationParams,
          response: { 200: Envelope(NotificationRecord), ...errors(401, 403, 404) },
        },
      },
      async (request) => ok(await notifications.markNotification(deps, principalOf(request), request.params.id, false)),
    );
    app.delete(
      '/notifications/:id',
      {
        schema: {
          tags,
          summary: 'Delete a notification',
          description: 'Another agent’s notification, or an unknown id, is a 404.',
          params: NotificationParams,
          response: { 200: TrueEnvelope, ...errors(401, 403, 404) },
        },
      },
      async (request) => {
        await notifications.deleteNotification(deps, principalOf(request), request.params.id);
        return ok(true as const);
      },
    );

    app.get(
      '/agents/me/notification-settings',
      {
        schema: {
          tags,
          summary: 'My notification preferences',
          description:
            'For each type, whether it is shown in the app, mailed and pushed; `email_digest`: one mail per 15 minutes instead of one per notification; `sound` and `title_count`: what the web app does on a new notification. Defaults: in the app every type, by email `assigned`, `mentioned` and `sla_breached`, push none, no digest, sound and title count on.',
          response: { 200: Envelope(NotificationSettingsRecord), ...errors(401) },
        },
      },
      async (request) => ok(await notifications.mySettings(deps, principalOf(request).userId)),
    );
    app.put(
      '/agents/me/notification-settings',
      {
        schema: {
          tags,
          summary: 'Change my notification preferences',
          description:
            'A partial change: what the body leaves out keeps its value (`{"types": {"reply": {"email": true}}}` changes one choice); the whole record as GET answered it is accepted too. An unknown type, channel or field is a 400. Answers the preferences as they are now.',
          body: NotificationSettingsBody,
          response: { 200: Envelope(NotificationSettingsRecord), ...errors(400, 401, 403) },
        },
      },
      async (request) => ok(await notifications.changeMySettings(deps, principalOf(request).userId, request.body)),
    );
  };
}
