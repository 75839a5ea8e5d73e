// /dashboard/webhooks: the signed-in account's webhooks with their recent deliveries, adding one (its
// secret shown once, in the answer to the form, never in a URL) and deleting one after a confirmation.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { parseId } from '../../schemas/parse-id.ts';
import { validationMessages } from '../../schemas/validation-messages.ts';
import { CreateWebhookBody, WebhookIdParams } from '../../schemas/webhooks.ts';
import { ValidationError } from '../../services/errors.ts';
import type { CreatedWebhook } from '../../services/webhook-view.ts';
import { csrfToken } from '../csrf.ts';
import { sendPage } from '../render.ts';
import { dashboardNav, requireSignIn, signedInAccount } from '../session.ts';
import { confirmDeletePage } from '../views/confirm-delete.ts';
import type { FieldErrors } from '../views/form-parts.ts';
import { webhooksPage, type WebhooksPageOptions } from '../views/webhooks.ts';
import { noticeFrom } from './list-query.ts';

const PageQuery = Type.Object({ notice: Type.Optional(Type.String({ maxLength: 40 })) });
const NOTICES = { 'webhook-deleted': 'The webhook and its deliveries were deleted.' };
/** Deliveries shown under each webhook; the API lists them all. */
const RECENT_DELIVERIES = 10;
/** The most an account can have (the service's cap), so one page shows them all. */
const WEBHOOKS_SHOWN = 25;

function listOf(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
}

export const dashboardWebhookRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { webhooks, lists } = app.services;

  async function render(
    request: FastifyRequest,
    reply: FastifyReply,
    status: number,
    form: Partial<Pick<WebhooksPageOptions, 'values' | 'errors' | 'notice'>> & { created?: CreatedWebhook },
  ) {
    const accountId = signedInAccount(request).organization_id;
    const { items } = await lists.webhooks(accountId, { page: 1, perPage: WEBHOOKS_SHOWN });
    const withDeliveries = await Promise.all(
      items.map(async (webhook) => ({ webhook, recent: await lists.webhookDeliveries(accountId, webhook.id, { page: 1, perPage: RECENT_DELIVERIES }) })),
    );
    return sendPage(reply, status, webhooksPage({
      nav: dashboardNav(request, reply, 'webhooks'),
      csrfToken: csrfToken(reply),
      webhooks: withDeliveries,
      values: form.values ?? { url: '', events: [] },
      errors: form.errors ?? {},
      created: form.created,
      notice: form.notice,
    }));
  }

  app.get(
    '/dashboard/webhooks',
    { schema: { hide: true, querystring: PageQuery }, preHandler: requireSignIn },
    async (request, reply) => render(request, reply, 200, { notice: noticeFrom(NOTICES, request.query.notice) }),
  );

  app.post(
    '/dashboard/webhooks',
    { schema: { hide: true, body: CreateWebhookBody }, attachValidation: true, preHandler: [requireSignIn, app.csrfProtection] },
    async (request, reply) => {
      const body = request.body as { url?: unknown; events?: unknown } | undefined;
      const values = { url: typeof body?.url === 'string' ? body.url : '', events: listOf(body?.events) };
      const showErrors = (errors: FieldErrors) => render(request, reply, 422, { values, errors });
      if (request.validationError?.validation) return showErrors(validationMessages(request.validationError.validation));
      try {
        const created = await webhooks.register(signedInAccount(request).organization_id, { url: request.body.url, events: request.body.events });
        // The secret is in this answer only: no redirect, so it is never in a URL or the history.
        return render(request, reply, 201, { created });
      } catch (error) {
        if (error instanceof ValidationError) return showErrors({ [error.field]: [error.message] });
        throw error;
      }
    },
  );

  app.get(
    '/dashboard/webhooks/:id/delete',
    { schema: { hide: true, params: WebhookIdParams }, preHandler: requireSignIn },
    async (request, reply) => {
      const webhook = await webhooks.show(signedInAccount(request).organization_id, parseId(request.params.id));
      return sendPage(reply, 200, confirmDeletePage({
        nav: dashboardNav(request, reply, 'webhooks'),
        csrfToken: csrfToken(reply),
        heading: `Delete the webhook to ${webhook.url}?`,
        consequence: 'It will receive no more events, and its delivery history will be deleted with it.',
        action: `/dashboard/webhooks/${webhook.id}/delete`,
        cancelHref: '/dashboard/webhooks',
        buttonLabel: 'Delete the webhook',
      }));
    },
  );

  app.post(
    '/dashboard/webhooks/:id/delete',
    { schema: { hide: true, params: WebhookIdParams }, preHandler: [requireSignIn, app.csrfProtection] },
    async (request, reply) => {
      await webhooks.remove(signedInAccount(request).organization_id, parseId(request.params.id));
      return reply.redirect('/dashboard/webhooks?notice=webhook-deleted', 303);
    },
  );
};
