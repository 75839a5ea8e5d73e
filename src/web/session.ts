// Who is signed in to the dashboard: the session cookie resolved on every page request.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { WebSessionService } from '../services/web-session.service.ts';
import type { Account } from '../services/types.ts';
import { SESSION_COOKIE } from './cookies.ts';
import { csrfToken } from './csrf.ts';
import type { DashboardSection, HeaderNav } from './views/layout.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** The signed-in account of a web page request, or null. */
    webAccount: Account | null;
  }
}

export function registerWebSession(app: FastifyInstance, sessions: WebSessionService): void {
  app.decorateRequest('webAccount', null);
  app.addHook('onRequest', async (request) => {
    const token = request.cookies[SESSION_COOKIE];
    request.webAccount = token ? await sessions.resolve(token) : null;
  });
}

/** preHandler of dashboard routes: no session, no page; the browser goes to sign in. */
export async function requireSignIn(request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply | undefined> {
  if (request.webAccount) return undefined;
  // A cookie that no longer opens a session (expired, signed out, key revoked) is dropped.
  if (request.cookies[SESSION_COOKIE] !== undefined) reply.clearCookie(SESSION_COOKIE, { path: '/' });
  // Returning the reply ends the hook chain here: no CSRF check or handler runs.
  return reply.redirect('/sign-in', 303);
}

/** The account of a request that passed requireSignIn. */
export function signedInAccount(request: FastifyRequest): Account {
  if (!request.webAccount) throw new Error('requireSignIn must run before this handler');
  return request.webAccount;
}

export function dashboardNav(request: FastifyRequest, reply: FastifyReply, current: DashboardSection): HeaderNav {
  return { kind: 'dashboard', email: signedInAccount(request).email, csrfToken: csrfToken(reply), current };
}
