// The cookies of a login session, written the same way whichever way the agent logged in
// (password or single sign-on): an HttpOnly session cookie and a readable CSRF cookie,
// SameSite=Lax, Secure when BASE_URL is https (docs/api.md, Authentication).
import type { FastifyReply } from 'fastify';
import type { AppDeps } from '../deps.ts';
import { CSRF_COOKIE, type NewSession, SESSION_COOKIE } from './auth.service.ts';

export function secureCookies(deps: AppDeps): boolean {
  return deps.config.baseUrl.startsWith('https:');
}

export function setSessionCookies(reply: FastifyReply, deps: AppDeps, session: NewSession): void {
  const secure = secureCookies(deps);
  const maxAge = Math.floor((session.expiresAt.getTime() - deps.clock.now().getTime()) / 1000);
  reply.setCookie(SESSION_COOKIE, session.token, { path: '/', httpOnly: true, sameSite: 'lax', secure, maxAge });
  reply.setCookie(CSRF_COOKIE, session.csrfToken, { path: '/', httpOnly: false, sameSite: 'lax', secure, maxAge });
}

export function clearSessionCookies(reply: FastifyReply): void {
  reply.clearCookie(SESSION_COOKIE, { path: '/' });
  reply.clearCookie(CSRF_COOKIE, { path: '/' });
}
