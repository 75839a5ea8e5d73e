// CSRF protection for every form: a secret in an HttpOnly cookie and a token derived from it in each
// form (double submit, @fastify/csrf-protection). A cross-site page can make a browser post, but it
// can neither read the cookie nor a page of ours to learn a valid token.
import type { FastifyInstance, FastifyReply } from 'fastify';
import cookie from '@fastify/cookie';
import csrfProtection from '@fastify/csrf-protection';
import { CSRF_COOKIE, baseCookieOptions, isHttps } from './cookies.ts';

export async function registerCsrf(app: FastifyInstance): Promise<void> {
  await app.register(cookie);
  await app.register(csrfProtection, { cookieKey: CSRF_COOKIE, cookieOpts: baseCookieOptions(false) });
}

/** A token for the page being rendered; sets the secret cookie on the first form a browser gets. */
export function csrfToken(reply: FastifyReply): string {
  return reply.generateCsrf({ secure: isHttps(reply.request) });
}

export function isCsrfError(error: { code?: string }): boolean {
  return error.code === 'FST_CSRF_INVALID_TOKEN' || error.code === 'FST_CSRF_MISSING_SECRET';
}
