// What pino leaves out of every log line: API keys, passwords and webhook secrets never reach the logs.
import type { FastifyRequest } from 'fastify';

/** Paths pino removes from any logged object. */
export const logRedactPaths = [
  'req.headers.authorization',
  'req.headers.cookie',
  'res.headers["set-cookie"]',
  'body.password',
  'password',
  'api_key',
  'secret',
  'secretKey',
  'secret_encrypted',
  'data.secret',
];

/**
 * Query parameters whose values a logged URL leaves out. The API takes no secret in a query string,
 * but a client may put one there (?api_key=..., ?password=...), and the request line is logged.
 */
const SECRET_PARAMETER = /pass|key|token|secret|auth|session|cookie/i;

function redactUrl(url: string): string {
  const start = url.indexOf('?');
  if (start === -1) return url;
  const pairs = url
    .slice(start + 1)
    .split('&')
    .map((pair) => {
      const equals = pair.indexOf('=');
      if (equals === -1) return pair;
      const name = pair.slice(0, equals);
      let decoded = name;
      try {
        decoded = decodeURIComponent(name.replace(/\+/g, ' '));
      } catch {
        // A name with broken percent-encoding is matched as written.
      }
      return SECRET_PARAMETER.test(decoded) ? `${name}=[Redacted]` : pair;
    });
  return `${url.slice(0, start)}?${pairs.join('&')}`;
}

/** Fastify's request serializer, with the URL's secret-looking query values blanked. */
export const logSerializers = {
  req(request: FastifyRequest) {
    return {
      method: request.method,
      url: redactUrl(request.url),
      host: request.host,
      remoteAddress: request.ip,
      remotePort: request.socket?.remotePort,
    };
  },
};
