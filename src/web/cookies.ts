// The cookies the web side sets. All HttpOnly (no script needs them) and SameSite=Lax (sent when a
// person follows a link here, not with another site's form posts); Secure whenever the request came
// over https, so they never travel in clear once the site is served over TLS.
import type { CookieSerializeOptions } from '@fastify/cookie';
import type { FastifyRequest } from 'fastify';

export const SESSION_COOKIE = 'pagegrade_session';
export const CSRF_COOKIE = 'pagegrade_csrf';

/**
 * The report's id is in the name because the path (unlockCookieOptions) is every report's: one cookie
 * per unlocked report, and its value opens that report only (an HMAC of its id, report-access.service.ts).
 * A new name, not the earlier pagegrade_unlock_{id}: a browser may still hold that at /reports/{id}, a
 * longer path, which browsers send first, so a stale one would hide the new one.
 */
export function unlockCookieName(reportId: number): string {
  return `pagegrade_unlock_report_${reportId}`;
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
 * An unlocked password report: no Max-Age, so it lasts until the browser session ends, and the path
 * /reports/, so one cookie reaches all of the report's pages, /reports/12, /reports/12/runs/... and
 * /reports/12.pdf alike (a path /reports/12 would miss the PDF: a path matches only up to a "/").
 * Nothing but report pages is under /reports/ (the API and dashboard are elsewhere).
 */
export function unlockCookieOptions(secure: boolean): CookieSerializeOptions {
  return { ...baseCookieOptions(secure), path: '/reports/' };
}
