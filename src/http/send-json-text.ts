// Answers with JSON the service already holds as text (stored report summaries and results), or as its
// UTF-8 bytes (kept list answers, or parts of the in-memory list index), so it is neither parsed nor
// serialised again. Fastify sends text or bytes as they are when the content type is set; the route's
// response schema still documents the shape, and the API tests check the bodies against it.
import type { OutgoingHttpHeaders } from 'node:http';
import type { FastifyReply } from 'fastify';

const JSON_TYPE = 'application/json; charset=utf-8';

export function sendJsonText(reply: FastifyReply, json: string | Buffer): FastifyReply {
  return reply.type(JSON_TYPE).send(json);
}

/**
 * Answers with JSON in byte parts, written in order and never joined: a list's items as views of the
 * list index between the envelope's parts. Why: joining them meant a new 37 KB buffer outside V8's
 * heap per request, and its allocation, copy and collection held SQLite's filtered list at about 9,800
 * req/s against 11,600 written as parts (bench/experiments/read-queries.ts, no kept answers).
 *
 * Fastify sends one payload, so the reply is taken over (hijack): it goes out with the headers set so
 * far (request id, security headers, rate limit) plus the content type and length, on the response
 * Fastify made (its request log and onResponse hooks still run when it finishes). Its onSend hooks do
 * not run: the app has one, closing the connection while the server shuts down, and it is applied here.
 */
export function sendJsonParts(reply: FastifyReply, parts: readonly Buffer[]): FastifyReply {
  let length = 0;
  for (const part of parts) length += part.length;
  reply.header('content-type', JSON_TYPE).header('content-length', length);
  if (reply.server.shuttingDown) reply.header('connection', 'close');
  reply.hijack();
  const response = reply.raw;
  response.writeHead(reply.statusCode, reply.getHeaders() as OutgoingHttpHeaders);
  // One write to the socket for all of them (end() uncorks).
  response.cork();
  for (const part of parts) response.write(part);
  response.end();
  return reply;
}
