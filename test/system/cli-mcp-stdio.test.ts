// `pagegrade mcp` as an MCP client starts it: the real binary (bin/pagegrade.js, the compiled code) as a
// child process, spoken to over its stdin and stdout, by the SDK's own client and by bare JSON-RPC
// lines. What the tools answer is tested in-process (test/cli/mcp.test.ts); this checks the wiring:
// the stdio transport, nothing else on stdout, the exit when stdin ends.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { pagegradeVersion } from '../../src/cli/version.ts';
import { checkCatalogue } from '../../src/schemas/check-catalogue.ts';
import { assertBuilt } from '../support/processes.ts';
import { goodPage, html, startSite, type Site } from '../support/site-server.ts';

const REPOSITORY = fileURLToPath(new URL('../../', import.meta.url));
const BINARY = fileURLToPath(new URL('../../bin/pagegrade.js', import.meta.url));
/** The child's settings: only these, none of the test runner's own. */
const SETTINGS = { PAGEGRADE_ALLOW_PRIVATE_URLS: '1' };

let site: Site;
beforeAll(async () => {
  assertBuilt();
  site = await startSite({ '/': html(goodPage()) });
});
afterAll(() => site.close());

describe('pagegrade mcp over stdio', () => {
  it('the SDK client initializes, lists the two tools and calls list_checks; nothing else reaches it', async () => {
    // The SDK's transport gives the child a few of this environment's variables (PATH, HOME, ...) and these.
    const transport = new StdioClientTransport({ command: process.execPath, args: [BINARY, 'mcp'], env: SETTINGS, cwd: REPOSITORY, stderr: 'pipe' });
    let stderr = '';
    transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const client = new Client({ name: 'system-test', version: '1.0.0' });
    // A line of stdout that is not a protocol message is an error of the transport.
    const errors: Error[] = [];
    client.onerror = (error) => errors.push(error);
    await client.connect(transport);
    try {
      expect(client.getServerVersion()).toMatchObject({ name: 'pagegrade', version: pagegradeVersion() });
      expect(client.getServerCapabilities()?.tools).toBeDefined();
      const { tools } = await client.listTools();
      expect(tools.map(({ name, annotations }) => [name, annotations?.readOnlyHint])).toEqual([
        ['analyze_url', false],
        ['list_checks', true],
      ]);
      const checks = (await client.callTool({ name: 'list_checks', arguments: {} })) as CallToolResult;
      expect(checks.structuredContent).toStrictEqual(JSON.parse(JSON.stringify({ data: checkCatalogue() })));
    } finally {
      await client.close();
    }
    expect(errors).toEqual([]);
    expect(stderr).toBe('');
  });

  it('bare JSON-RPC lines, stdin then closed: every request answered, stdout only protocol messages, exit 0', async () => {
    const inherited = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('PAGEGRADE_') && !['FORCE_COLOR', 'NO_COLOR', 'DATABASE_URL'].includes(name)));
    const child = spawn(process.execPath, [BINARY, 'mcp'], { cwd: REPOSITORY, env: { ...inherited, ...SETTINGS }, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const exited = once(child, 'exit');
    const messages = [
      { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '0' } } },
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      { jsonrpc: '2.0', id: 2, method: 'tools/list' },
      { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'analyze_url', arguments: { url: site.url('/') } } },
    ];
    // All at once and the input closed straight after: the analysis still running is answered before the exit.
    child.stdin.end(messages.map((message) => `${JSON.stringify(message)}\n`).join(''));
    const [code] = await exited;
    expect(code, stderr).toBe(0);
    expect(stderr).toBe('');
    expect(stdout.endsWith('\n')).toBe(true);
    const answers = stdout.trimEnd().split('\n').map((line) => JSON.parse(line) as { jsonrpc: string; id: number; result?: Record<string, unknown> });
    expect(answers.map(({ jsonrpc, id }) => [jsonrpc, id]).sort()).toEqual([['2.0', 1], ['2.0', 2], ['2.0', 3]]);
    const byId = new Map(answers.map((answer) => [answer.id, answer.result]));
    expect(byId.get(1)).toMatchObject({ protocolVersion: '2025-06-18', serverInfo: { name: 'pagegrade' } });
    expect(byId.get(3)).toMatchObject({ structuredContent: { url: site.url('/'), score: expect.any(Number), failed: expect.any(Array) } });
  });
});
