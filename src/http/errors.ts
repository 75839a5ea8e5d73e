// One place that turns any error into the contract's error bodies (docs/api.md, "Answers and errors"),
// including the answers Fastify and Node would otherwise write in their own shapes (bad URLs, oversized
// headers, requests that arrive while the server shuts down), and that refuses input the database
// cannot take.
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AnalysisInProgressError, NotFoundError, QueueUnavailableError, TooManyCrawlsError, ValidationError } from '../services/errors.ts';
import { TooManyAnalysesError } from '../services/analysis-slots.ts';
import { ForbiddenError } from '../services/roles.ts';
import { sendDatabaseUnavailable } from './database-unavailable.ts';
import { isDatabaseUnavailable } from '../db/database-errors.ts';
import { validationMessages } from '../schemas/validation-messages.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** True from the moment the server starts closing (registerShutdownResponses). */
    shuttingDown: boolean;
  }
}

export const NOT_FOUND_BODY = { message: 'Resource not found.', status: 404 } as const;

function sendValidationError(reply: FastifyReply, errors: Record<string, string[]>) {
  return reply.code(422).send({ message: 'The given data was invalid.', errors, status: 422 });
}

function sendError(reply: FastifyReply, status: number, message: string) {
  return reply.code(status).send({ message, status });
}

function bodyParseMessage(error: FastifyError): string | null {
  switch (error.code) {
    // (Zero bytes of JSON are no error: an empty body has no fields, empty-bodies.ts.)
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return `The body is not valid JSON: ${error.message}`;
    default:
      return null;
  }
}

/** Long enough for a Redis failover or restart. */
const QUEUE_RETRY_AFTER_SECONDS = 5;

export function registerErrorHandler(app: FastifyInstance, bodyLimit: number): void {
  app.setErrorHandler((error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    if (error.validation) {
      return sendValidationError(reply, validationMessages(error.validation));
    }
    if (error instanceof ValidationError) return sendValidationError(reply, { [error.field]: [error.message] });
    if (error instanceof NotFoundError) return reply.code(404).send(NOT_FOUND_BODY);
    if (error instanceof ForbiddenError) return sendError(reply, 403, error.message);
    if (error instanceof AnalysisInProgressError) return sendError(reply, 409, error.message);
    if (error instanceof QueueUnavailableError) {
      request.log.warn({ reason: error.cause instanceof Error ? error.cause.message : String(error.cause) }, 'queue unavailable; answered 503');
      reply.header('retry-after', String(QUEUE_RETRY_AFTER_SECONDS));
      return sendError(reply, 503, error.message);
    }
    if (error instanceof TooManyAnalysesError || error instanceof TooManyCrawlsError) {
      reply.header('retry-after', String(error.retryAfterSeconds));
      return sendError(reply, error.status, error.message);
    }
    if (isDatabaseUnavailable(error)) return sendDatabaseUnavailable(request, reply, error);
    const parseMessage = bodyParseMessage(error);
    if (parseMessage) return sendValidationError(reply, { body: [parseMessage] });
    switch (error.statusCode) {
      case 413:
        // A route may take more than the server's limit (a logo: PUT /organizations/{id}).
        return sendError(reply, 413, `The request body must be at most ${request.routeOptions.bodyLimit ?? bodyLimit} bytes.`);
      case 415:
        return sendError(
          reply,
          415,
          'Send the body as application/x-www-form-urlencoded or application/json.',
        );
      case 429:
        return sendError(reply, 429, error.message || 'Too many requests; wait before retrying.');
      default:
        break;
    }
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) return sendError(reply, status, error.message);
    request.log.error({ err: error }, 'request failed');
    return sendError(reply, 500, `Internal server error. Quote request id ${request.id} when reporting it.`);
  });
}

/** Seconds a client is told to wait before retrying a request refused during shutdown. */
const SHUTDOWN_RETRY_AFTER_SECONDS = 5;

/** Errors the router raises before any route or hook runs. */
function answerFrameworkError(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  reply.header('x-request-id', request.id);
  switch (error.code) {
    // Broken percent-encoding in the path names no resource (as an id that is not one is a 404).
    // (The router has not chosen a route yet, so the app's not-found handler is out of reach here.)
    case 'FST_ERR_BAD_URL':
      void reply.code(404).send(NOT_FOUND_BODY);
      return;
    // Fastify's own body would echo the whole oversized URL back.
    case 'FST_ERR_MAX_PARAM_LENGTH':
      void sendError(reply, 414, 'The URL is too long.');
      return;
    default:
      request.log.error({ err: error }, 'router failed');
      void sendError(reply, 500, `Internal server error. Quote request id ${request.id} when reporting it.`);
  }
}

const CLIENT_ERROR_MESSAGES: Record<number, string> = {
  400: 'The request is not valid HTTP.',
  408: 'The request took too long to arrive.',
  431: 'The request headers are too large.',
};

/** Requests Node's HTTP parser refuses (oversized headers or request line, malformed HTTP). */
function answerClientError(error: NodeJS.ErrnoException, socket: Socket): void {
  // A reset connection has no one left to answer.
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const status = error.code === 'HPE_HEADER_OVERFLOW' ? 431 : error.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : 400;
  const body = JSON.stringify({ message: CLIENT_ERROR_MESSAGES[status], status });
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy(error);
}

/** Fastify options that make the framework's own error answers use the contract's bodies. */
export const frameworkErrorOptions = {
  frameworkErrors: answerFrameworkError,
  clientErrorHandler: answerClientError,
  // Fastify's built-in 503 while closing has another body; registerShutdownResponses answers instead.
  return503OnClosing: false,
};

/**
 * How long a kept-alive connection that is idle when the server starts closing stays open. Node
 * closes idle connections the moment the server closes, so a request the client had just sent on one
 * met a reset instead of a 503; for this long it is answered 503 and its connection
 * closed, then the connections still idle are closed. Short: it can hold a shutdown that long.
 */
const IDLE_CONNECTION_GRACE_MS = 1_000;

/**
 * From the moment the server starts closing: any request that still arrives (on a connection that was
 * already open) gets 503 with Retry-After, and every response, including those of requests in flight,
 * closes its connection, so an idle keep-alive connection cannot hold the shutdown open.
 */
export function registerShutdownResponses(app: FastifyInstance): void {
  app.decorate('shuttingDown', false);
  app.addHook('preClose', async () => {
    app.shuttingDown = true;
    deferIdleConnectionClose(app);
  });
  app.addHook('onRequest', async (_request, reply) => {
    if (!app.shuttingDown) return;
    reply.header('retry-after', String(SHUTDOWN_RETRY_AFTER_SECONDS));
    return sendError(reply, 503, 'The server is shutting down; retry shortly.');
  });
  app.addHook('onSend', async (_request, reply) => {
    if (app.shuttingDown) reply.header('connection', 'close');
  });
}

/** server.close() (which Fastify calls next) closes idle connections through this method: later, here. */
function deferIdleConnectionClose(app: FastifyInstance): void {
  const server = app.server;
  if (!server.listening) return;
  const closeIdle = server.closeIdleConnections.bind(server);
  server.closeIdleConnections = () => {
    setTimeout(closeIdle, IDLE_CONNECTION_GRACE_MS).unref();
  };
}

function hasNul(value: unknown): boolean {
  return typeof value === 'string' ? value.includes('\u0000') : Array.isArray(value) && value.some(hasNul);
}

function isNonFinite(value: unknown): boolean {
  return typeof value === 'number' && !Number.isFinite(value);
}

/**
 * Fields of a query, path or body object whose value fails `test`. Only fields the route's schema
 * declares count (unknown parameters are ignored, docs/api.md "Requests"); a route without one has all
 * counted.
 */
function fieldsWhere(values: unknown, schema: unknown, test: (value: unknown) => boolean): string[] {
  if (typeof values !== 'object' || values === null || Array.isArray(values)) return [];
  const declared = (schema as { properties?: Record<string, unknown> } | undefined)?.properties;
  return Object.entries(values)
    .filter(([field, value]) => (declared === undefined || field in declared) && test(value))
    .map(([field]) => field);
}

function refuseFields(reply: FastifyReply, fields: string[], rule: string) {
  return sendValidationError(reply, Object.fromEntries(fields.map((field) => [field, [`The ${field} ${rule}.`]])));
}

/**
 * Input that passes the schemas but cannot reach the database, refused before any route runs so
 * that it is a 4xx on both databases rather than a 500:
 * - the NUL character, which PostgreSQL text can neither hold nor compare (SQLite can): a path value
 *   with one names nothing (404); a query or body field is a 422 naming it;
 * - ±Infinity, which ajv's type coercion makes of "Infinity" or "1e999" while its minimum and maximum
 *   keywords let non-finite numbers through: a 422 naming the field.
 */
export function registerInputRefusals(app: FastifyInstance): void {
  app.addHook('preValidation', async (request, reply) => {
    const schema = request.routeOptions.schema ?? {};
    // An unknown path (with a NUL, say) is already in the not-found handler, whose answer stands:
    // calling it again would make Fastify send its own plain-text 404.
    if (request.is404) return;
    if (fieldsWhere(request.params, schema.params, hasNul).length > 0) return reply.callNotFound();
    const fields = [...fieldsWhere(request.query, schema.querystring, hasNul), ...fieldsWhere(request.body, schema.body, hasNul)];
    if (fields.length > 0) return refuseFields(reply, fields, 'must not contain the NUL character (U+0000)');
  });
  app.addHook('preHandler', async (request, reply) => {
    const schema = request.routeOptions.schema ?? {};
    const fields = [
      ...fieldsWhere(request.query, schema.querystring, isNonFinite),
      ...fieldsWhere(request.body, schema.body, isNonFinite),
    ];
    if (fields.length > 0) return refuseFields(reply, fields, 'must be a finite number');
  });
}
