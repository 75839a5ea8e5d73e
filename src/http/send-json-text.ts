// Answers with JSON the service already holds as text (stored report summaries and results), or as its
// UTF-8 bytes (kept list answers), so it is neither parsed nor serialised again. Fastify sends either as
// it is when the content type is set; the route's response schema still documents the shape, and the
// API tests check the bodies against it.
import type { FastifyReply } from 'fastify';

export function sendJsonText(reply: FastifyReply, json: string | Buffer): FastifyReply {
  return reply.type('application/json; charset=utf-8').send(json);
}
