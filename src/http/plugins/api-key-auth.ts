// Bearer API-key authentication for the /api/v1 scope (docs/api.md, "Authentication").
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Account } from '../../services/types.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** The authenticated account; set by the auth hook on every /api/v1 route. */
    account: Account;
    /** Id of the API key used. */
    apiKeyId: number;
    /** SHA-256 of the API key used: the per-key rate-limit bucket, unique across databases. */
    apiKeyHash: string;
  }
}

/**
 * RFC 9110 11.4 and RFC 6750 2.1: the scheme (any case), 1*SP, the token. Spaces only, as the grammar
 * says: "Bearer<TAB>key" is refused, "Bearer  key" accepted. (Node has already trimmed the value.)
 */
const BEARER = /^bearer +(\S+)[ \t]*$/i;

function bearerToken(header: string | undefined): string | null {
  if (!header) return null;
  return BEARER.exec(header)?.[1] ?? null;
}

/**
 * Every 401 under /api/v1. `message` is phpRank's, which its clients compare; `hint` tells a person
 * (or a script's author) what to send instead.
 */
const UNAUTHENTICATED_BODY = {
  message: 'Unauthenticated.',
  hint: 'Send your API key in the Authorization header: Authorization: Bearer <key>.',
  status: 401,
} as const;

function unauthenticated(reply: FastifyReply) {
  return reply.code(401).header('www-authenticate', 'Bearer').send(UNAUTHENTICATED_BODY);
}

export function registerApiKeyAuth(app: FastifyInstance): void {
  app.decorateRequest('account', null as unknown as Account);
  app.decorateRequest('apiKeyId', 0);
  app.decorateRequest('apiKeyHash', '');
  app.addHook('onRequest', async (request: FastifyRequest, reply: FastifyReply) => {
    const token = bearerToken(request.headers.authorization);
    const found = token ? await app.services.accounts.authenticate(token) : null;
    if (!found) return unauthenticated(reply);
    request.account = found.account;
    request.apiKeyId = found.keyId;
    request.apiKeyHash = found.keyHash;
  });
}
