// One place that turns any error into the contract's error bodies (API.md "Errors").
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { NotFoundError, ValidationError } from '../services/errors.ts';
import { TooManyAnalysesError } from '../services/analysis-slots.ts';
import { validationMessages } from './validation-messages.ts';

export const NOT_FOUND_BODY = { message: 'Resource not found.', status: 404 } as const;

export function sendValidationError(reply: FastifyReply, errors: Record<string, string[]>) {
  return reply.code(422).send({ message: 'The given data was invalid.', errors, status: 422 });
}

export function sendError(reply: FastifyReply, status: number, message: string) {
  return reply.code(status).send({ message, status });
}

function bodyParseMessage(error: FastifyError): string | null {
  switch (error.code) {
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return `The body is not valid JSON: ${error.message}`;
    default:
      return null;
  }
}

export function registerErrorHandler(app: FastifyInstance, bodyLimit: number): void {
  app.setErrorHandler((error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    if (error.validation) {
      return sendValidationError(reply, validationMessages(error.validation));
    }
    if (error instanceof ValidationError) return sendValidationError(reply, { [error.field]: [error.message] });
    if (error instanceof NotFoundError) return reply.code(404).send(NOT_FOUND_BODY);
    if (error instanceof TooManyAnalysesError) {
      reply.header('retry-after', String(error.retryAfterSeconds));
      return sendError(reply, error.status, error.message);
    }
    const parseMessage = bodyParseMessage(error);
    if (parseMessage) return sendValidationError(reply, { body: [parseMessage] });
    switch (error.statusCode) {
      case 413:
        return sendError(reply, 413, `The request body must be at most ${bodyLimit} bytes.`);
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
