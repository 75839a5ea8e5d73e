// /reports/{id}: the shareable report page, and the password form of a protected report. Its owner
// also reads there of an earlier report of the same page, if they have one (docs/web.md).
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { ReportIdParams } from '../../schemas/reports.ts';
import { parseId } from '../../schemas/parse-id.ts';
import type { ReportAccessService } from '../../services/report-access.service.ts';
import type { AttemptLimiter } from '../attempt-limiter.ts';
import { isHttps, unlockCookieName, unlockCookieOptions } from '../cookies.ts';
import { csrfToken } from '../csrf.ts';
import { sendNotFoundPage, sendPage } from '../render.ts';
import type { BrandView } from '../views/brand.ts';
import { errorPage } from '../views/message-pages.ts';
import { reportPage } from '../views/report.ts';
import { unlockPage } from '../views/unlock.ts';
import { historyOf, organizationBrand, visibleReport } from './report-viewer.ts';

export interface ReportPageRouteOptions {
  access: ReportAccessService;
  /** Wrong passwords per report and client address. */
  unlockAttempts: AttemptLimiter;
  /** Whose name, logo and colour the report wears (white-label). */
  brand: BrandView;
}

const UnlockBody = Type.Object({ password: Type.String({ maxLength: 1024 }) });

function waitSentence(seconds: number): string {
  const minutes = Math.ceil(seconds / 60);
  return minutes <= 1 ? 'a minute' : `${minutes} minutes`;
}

export const reportPageRoutes: FastifyPluginAsyncTypebox<ReportPageRouteOptions> = async (app, { access, unlockAttempts, brand }) => {
  app.get('/reports/:id', { schema: { hide: true, params: ReportIdParams } }, async (request, reply) => {
    const visible = await visibleReport(access, request, reply, parseId(request.params.id), brand);
    if (!visible) return reply;
    const { report, asOwner, ownerId } = visible;
    const [history, earlierId] = await Promise.all([
      historyOf(app.services, visible),
      // Only the owner hears of their other reports.
      asOwner ? app.services.lists.earlierReportOfUrl(ownerId, report.url, report.id) : null,
    ]);
    return sendPage(reply, 200, reportPage({
      report,
      asOwner,
      signedIn: request.webAccount !== null,
      history,
      brand: visible.brand,
      pdfUrl: app.services.rendering.pdf ? `/reports/${report.id}.pdf` : undefined,
      duplicateOf: earlierId === null ? undefined : { reportId: earlierId, csrfToken: csrfToken(reply) },
    }));
  });

  app.post(
    '/reports/:id/unlock',
    { schema: { hide: true, params: ReportIdParams, body: UnlockBody }, preHandler: app.csrfProtection },
    async (request, reply) => {
      const id = parseId(request.params.id);
      const signedIn = request.webAccount !== null;
      const gate = await access.passwordGate(id);
      switch (gate.kind) {
        case 'not_locked':
          return reply.redirect(`/reports/${id}`, 303);
        case 'hidden':
          return sendNotFoundPage(reply);
        case 'locked':
          break;
        default:
          throw new Error(`unknown password gate ${JSON.stringify(gate satisfies never)}`);
      }
      // Only tries at a password-protected report count, so no other report is ever refused here: a
      // 429 cannot tell a private report from a missing one. The try is counted before the slow hash
      // judges it, so tries sent at once cannot all be judged before any is counted.
      const attemptKey = `${id}|${request.ip}`;
      const ticket = await unlockAttempts.take(attemptKey);
      if (!ticket.allowed) {
        reply.header('retry-after', String(ticket.retryAfterSeconds));
        return sendPage(reply, 429, errorPage({
          heading: 'Too many wrong passwords',
          message: `This report has had too many wrong passwords from your address. Try again in ${waitSentence(ticket.retryAfterSeconds)}.`,
          back: { href: `/reports/${id}`, label: 'Back to the password form' },
        }));
      }
      const token = await gate.check(request.body.password);
      if (token !== null) {
        await unlockAttempts.reset(attemptKey);
        reply.setCookie(unlockCookieName(id), token, unlockCookieOptions(isHttps(request)));
        return reply.redirect(`/reports/${id}`, 303);
      }
      const { remaining } = ticket;
      const error =
        remaining > 0
          ? `Wrong password. ${remaining} more wrong ${remaining === 1 ? 'try' : 'tries'} and this address has to wait before trying again.`
          : 'Wrong password. That was the last try for now: this address has to wait before trying again.';
      const shown = await organizationBrand(app.services, gate.organizationId, brand);
      return sendPage(reply, 403, unlockPage({ reportId: id, csrfToken: csrfToken(reply), signedIn, error, brand: shown }));
    },
  );
};
