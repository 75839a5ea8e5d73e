// Sends a rendered page. Pages are per-viewer (sessions, unlocked reports), so no cache keeps them.
import type { FastifyReply } from 'fastify';
import type { SafeHtml } from './html.ts';
import { notFoundPage } from './views/message-pages.ts';

export function sendPage(reply: FastifyReply, status: number, page: SafeHtml): FastifyReply {
  return reply.code(status).type('text/html; charset=utf-8').header('cache-control', 'no-store').send(page.toString());
}

/** The one not-found answer of every non-API path, whatever the reason. */
export function sendNotFoundPage(reply: FastifyReply): FastifyReply {
  return sendPage(reply, 404, notFoundPage());
}
