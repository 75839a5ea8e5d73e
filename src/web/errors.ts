// Errors on web pages become pages: a form sent without a valid CSRF token, invalid filters, a report
// that is not there, a body too large, and anything unexpected (logged, with the request id shown).
// An analysis or a crawl refused for now (too many at once) is the form again, saying so
// (analysisRefusal, crawlRefusal).
import type { FastifyError, FastifyInstance, FastifyReply } from 'fastify';
import { TooManyAnalysesError } from '../services/analysis-slots.ts';
import { NotFoundError, TooManyCrawlsError, ValidationError } from '../services/errors.ts';
import { validationMessages } from '../schemas/validation-messages.ts';
import { DATABASE_RETRY_AFTER_SECONDS, isDatabaseUnavailable } from '../db/database-errors.ts';
import { isCsrfError } from './csrf.ts';
import { sendNotFoundPage, sendPage } from './render.ts';
import { errorPage } from './views/message-pages.ts';

export function registerWebErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof NotFoundError) return sendNotFoundPage(reply);
    if (isCsrfError(error)) {
      return sendPage(reply, 403, errorPage({
        heading: 'This form has expired',
        message:
          'The form was not sent from a page of this site, or the page was too old. Go back, reload the page and send the form again.',
        back: { href: '/dashboard/reports', label: 'Go to your reports' },
      }));
    }
    if (error.validation || error instanceof ValidationError) {
      const details = error.validation
        ? Object.values(validationMessages(error.validation)).flat()
        : [error.message];
      return sendPage(reply, 422, errorPage({
        heading: 'Some values are not valid',
        message: 'Change them and try again.',
        details,
        back: { href: request.url.split('?')[0], label: 'Start again' },
      }));
    }
    if (isDatabaseUnavailable(error)) {
      request.log.warn({ reason: error.message }, 'database unavailable; answered 503');
      reply.header('retry-after', String(DATABASE_RETRY_AFTER_SECONDS));
      return sendPage(reply, 503, errorPage({
        heading: 'Temporarily unavailable',
        message: 'The database is not available right now. Try again in a few seconds.',
      }));
    }
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      return sendPage(reply, status, errorPage({ heading: 'The request could not be handled', message: error.message }));
    }
    request.log.error({ err: error }, 'web page failed');
    return sendPage(reply, 500, errorPage({
      heading: 'Something went wrong',
      message: `The page could not be made. If it happens again, quote request id ${request.id} when reporting it.`,
    }));
  });
}

/**
 * An analysis refused because too many run at once (TooManyAnalysesError), as a dashboard form shows
 * it: the status to answer (429 for the account's limit, 503 for the server's) with Retry-After set on
 * the reply, and the sentence to show in the form; null for any other error. The API maps the same
 * error in src/http/errors.ts.
 */
export function analysisRefusal(reply: FastifyReply, error: unknown): { status: number; message: string } | null {
  if (!(error instanceof TooManyAnalysesError)) return null;
  reply.header('retry-after', String(error.retryAfterSeconds));
  return { status: error.status, message: error.message };
}

/**
 * A crawl refused because the account has as many queued or running as it may (TooManyCrawlsError),
 * as the new-crawl form shows it: 429 with Retry-After set on the reply, and the sentence to show;
 * null for any other error. The API maps the same error in src/http/errors.ts.
 */
export function crawlRefusal(reply: FastifyReply, error: unknown): { status: number; message: string } | null {
  if (!(error instanceof TooManyCrawlsError)) return null;
  reply.header('retry-after', String(error.retryAfterSeconds));
  return { status: error.status, message: error.message };
}
