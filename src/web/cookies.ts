// The cookies the web side sets. All HttpOnly (no script needs them) and SameSite=Lax (sent when a
// person follows a link here, not with another site's form posts); Secure whenever the request came
// over https, so they never travel in clear once the site is served over TLS.
import type { CookieSerializeOptions } from '@fastify/cookie';
import type { FastifyRequest } from 'fastify';

export const SESSION_COOKIE = 'pagegrade_session';
export const CSRF_COOKIE = 'pagegrade_csrf';

export function unlockCookieName(reportId: number): string {
  return `pagegrade_unlock_${reportId}`;
}

export function isHttps(request: FastifyRequest): boolean {
  return request.protocol === 'https';
}

export function baseCookieOptions(secure: boolean): CookieSerializeOptions {
  return { path: '/', httpOnly: true, sameSite: 'lax', secure };
}

/** The dashboard session: persists for the session's lifetime, then the browser drops it too. */
export function sessionCookieOptions(secure: boolean, expiresAt: Date, now = new Date()): CookieSerializeOptions {
  return { ...baseCookieOptions(secure), maxAge: Math.floor((expiresAt.getTime() - now.getTime()) / 1000) };
}

/**
 * An unlocked password report: no Max-Age, so it lasts until the browser session ends, and a path
 * of that report only, so it is sent nowhere else.
 */
export function unlockCookieOptions(reportId: number, secure: boolean): CookieSerializeOptions {
  return { ...baseCookieOptions(secure), path: `/reports/${reportId}` };
}

/**
 * The same unlock for the report's PDF: a cookie of path /reports/12 is not sent to /reports/12.pdf
 * (a path matches only up to a "/"), so the unlock sets a second cookie for exactly that path.
 */
export function unlockPdfCookieOptions(reportId: number, secure: boolean): CookieSerializeOptions {
  return { ...baseCookieOptions(secure), path: `/reports/${reportId}.pdf` };
}
