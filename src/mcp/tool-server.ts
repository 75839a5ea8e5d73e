// An MCP server holding pagegrade's tools (tools.ts) with the handlers it is given, and the one shape of
// their results (docs/api.md, "MCP server"): structured content with the same JSON as text, or an
// isError result whose one text item says why.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { ZodRawShape } from 'zod';
import { toolDefinitions, type ToolHandlers, type ToolName, type ToolOutcome } from './tools.ts';

function toolResult(outcome: ToolOutcome): CallToolResult {
  if ('failure' in outcome) return { isError: true, content: [{ type: 'text', text: outcome.failure }] };
  return { structuredContent: outcome.content, content: [{ type: 'text', text: JSON.stringify(outcome.content) }] };
}

/**
 * `serverInfo` is pagegrade and `version`; `tools/list` lists the tools `handlers` has, in the order of
 * the documentation. The SDK answers the rest: initialize (the client's protocol version when it knows
 * it, else its newest), arguments that break a tool's schema and unknown tools (an isError result).
 */
export function createToolServer(version: string, handlers: Partial<ToolHandlers>): McpServer {
  const server = new McpServer({ name: 'pagegrade', version }, { capabilities: { tools: {} } });
  for (const name of Object.keys(toolDefinitions) as ToolName[]) {
    // Each handler takes its own tool's arguments, which the SDK has checked against the same schema.
    const handler = handlers[name] as ((args: unknown) => Promise<ToolOutcome>) | undefined;
    if (!handler) continue;
    const { description, inputSchema, readOnly } = toolDefinitions[name];
    server.registerTool(
      name,
      { description, inputSchema: inputSchema as ZodRawShape, annotations: { readOnlyHint: readOnly } },
      async (args: unknown) => toolResult(await handler(args)),
    );
  }
  return server;
}
