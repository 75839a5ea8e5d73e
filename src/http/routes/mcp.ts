// POST /mcp: the Model Context Protocol's Streamable HTTP transport (docs/organisations.md, "MCP over
// HTTP"), stateless: each POST carries one JSON-RPC message and is answered by a server made for it,
// with the tools acting as the bearer key's request would in the API. No session is handed out, so
// GET (no server-to-client stream) and DELETE (no session to end) are 405.
import type { FastifyInstance } from 'fastify';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { registerApiKeyAuth } from '../plugins/api-key-auth.ts';
import { registerKeyRateLimit } from './api/index.ts';
import { createToolServer } from '../../mcp/tool-server.ts';
import { serviceTools } from '../../mcp/service-tools.ts';
import { pagegradeVersion } from '../../cli/version.ts';

export async function mcpRoutes(app: FastifyInstance): Promise<void> {
  // A read key may call the reading tools: its scope is judged by each tool, not by the method.
  registerApiKeyAuth(app, { judgeScope: false });
  await registerKeyRateLimit(app);

  // Not an /api/v1 route: the MCP protocol describes itself (tools/list), not OpenAPI.
  app.post('/mcp', { schema: { hide: true } }, async (request, reply) => {
    const tools = serviceTools(app.services, {
      organization: request.organization,
      scope: request.apiKey.scope,
      origin: `${request.protocol}://${request.host}`,
    });
    const server = createToolServer(pagegradeVersion(), tools);
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    reply.hijack();
    reply.raw.on('close', () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(request.raw, reply.raw, request.body);
  });

  for (const method of ['GET', 'DELETE', 'PUT', 'PATCH'] as const) {
    app.route({
      method,
      url: '/mcp',
      schema: { hide: true },
      handler: async (_request, reply) =>
        reply.code(405).header('allow', 'POST').send({ message: 'Send MCP messages with POST; this server keeps no sessions and no event stream.', status: 405 }),
    });
  }
}
