// /sign-in and /sign-out: an API key opens a dashboard session; signing out ends it on the server.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { WebSessionService } from '../../services/web-session.service.ts';
import { SESSION_COOKIE, isHttps, sessionCookieOptions } from '../cookies.ts';
import { csrfToken } from '../csrf.ts';
import { sendPage } from '../render.ts';
import { signInPage } from '../views/sign-in.ts';
import { noticeFrom } from './list-query.ts';

export interface SignInRouteOptions {
  sessions: WebSessionService;
}

const SignInBody = Type.Object({ api_key: Type.String({ maxLength: 512 }) });
const SignInQuery = Type.Object({ notice: Type.Optional(Type.String({ maxLength: 40 })) });

/** Notices by name: a link can choose one, never write one. */
const NOTICES = { 'signed-out': 'You have signed out.' };

export const signInRoutes: FastifyPluginAsyncTypebox<SignInRouteOptions> = async (app, { sessions }) => {
  app.get('/sign-in', { schema: { hide: true, querystring: SignInQuery } }, async (request, reply) => {
    if (request.webAccount) return reply.redirect('/dashboard/reports', 303);
    const notice = noticeFrom(NOTICES, request.query.notice);
    return sendPage(reply, 200, signInPage({ csrfToken: csrfToken(reply), notice }));
  });

  app.post(
    '/sign-in',
    { schema: { hide: true, body: SignInBody }, preHandler: app.csrfProtection },
    async (request, reply) => {
      const opened = await sessions.signIn(request.body.api_key);
      if (!opened) {
        return sendPage(reply, 403, signInPage({
          csrfToken: csrfToken(reply),
          error: 'That API key is not valid, or it has been revoked.',
        }));
      }
      const previous = request.cookies[SESSION_COOKIE];
      if (previous) await sessions.signOut(previous);
      reply.setCookie(SESSION_COOKIE, opened.token, sessionCookieOptions(isHttps(request), opened.expiresAt));
      return reply.redirect('/dashboard/reports', 303);
    },
  );

  app.post('/sign-out', { schema: { hide: true }, preHandler: app.csrfProtection }, async (request, reply) => {
    const token = request.cookies[SESSION_COOKIE];
    if (token) await sessions.signOut(token);
    reply.clearCookie(SESSION_COOKIE, { path: '/' });
    return reply.redirect('/sign-in?notice=signed-out', 303);
  });
};
