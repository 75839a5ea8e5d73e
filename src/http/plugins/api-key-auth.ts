// Bearer API-key authentication for the /api/v1 scope (docs/api.md, "Authentication"), then what the
// key and the caller's role allow (docs/organisations.md): a read key's writes, a request naming an
// organisation the caller is not a member of, and a write the role does not allow are refused here,
// before anything is looked up.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Account } from '../../services/types.ts';
import type { ActingOrganization, CallerKey, Caller } from '../../services/organization.service.ts';
import { ForbiddenError, READ_SCOPE_REFUSAL, requireRole, type Action } from '../../services/roles.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** The authenticated account; set by the auth hook on every /api/v1 route. */
    account: Account;
    /** Id of the API key used. */
    apiKeyId: number;
    /** SHA-256 of the API key used: the per-key rate-limit bucket, unique across databases. */
    apiKeyHash: string;
    /** The key used: its scope and the organisation it is bound to. */
    apiKey: CallerKey;
    /** The organisation the request acts in, with the caller's role there. */
    organization: ActingOrganization;
  }
  interface FastifyContextConfig {
    /** The action a route's writes are, judged against the caller's role in the acting organisation. */
    action?: Action;
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

const READ_METHODS = new Set(['GET', 'HEAD']);

function unauthenticated(reply: FastifyReply) {
  return reply.code(401).header('www-authenticate', 'Bearer').send(UNAUTHENTICATED_BODY);
}

/** The organisation a request names: the Pagegrade-Organization header, else ?organization= (docs/organisations.md). */
function namedOrganization(request: FastifyRequest): string | undefined {
  const header = request.headers['pagegrade-organization'];
  if (typeof header === 'string') return header.trim();
  const query = (request.query as Record<string, unknown> | undefined)?.organization;
  if (typeof query === 'string') return query;
  if (Array.isArray(query) && typeof query[0] === 'string') return query[0];
  return undefined;
}

/**
 * `judgeScope` false: a read key's POSTs pass (POST /mcp, whose tools judge the scope themselves).
 */
export function registerApiKeyAuth(app: FastifyInstance, options: { judgeScope: boolean } = { judgeScope: true }): void {
  app.decorateRequest('account', null as unknown as Account);
  app.decorateRequest('apiKeyId', 0);
  app.decorateRequest('apiKeyHash', '');
  app.decorateRequest('apiKey', null as unknown as CallerKey);
  app.decorateRequest('organization', null as unknown as ActingOrganization);
  app.addHook('onRequest', async (request: FastifyRequest, reply: FastifyReply) => {
    const token = bearerToken(request.headers.authorization);
    const found = token ? await app.services.accounts.authenticate(token) : null;
    if (!found) return unauthenticated(reply);
    request.account = found.account;
    request.apiKeyId = found.keyId;
    request.apiKeyHash = found.keyHash;
    request.apiKey = found.key;
    if (options.judgeScope && found.key.scope === 'read' && !READ_METHODS.has(request.method)) throw new ForbiddenError(READ_SCOPE_REFUSAL);
    const caller: Caller = { account: found.account, key: found.key };
    request.organization = await app.services.organizations.acting(caller, namedOrganization(request));
    const action = request.routeOptions.config?.action;
    if (action) requireRole(request.organization.role, action);
  });
}

/** The caller of an API request, for the services that act for a person. */
export function callerOf(request: FastifyRequest): Caller {
  return { account: request.account, key: request.apiKey };
}
