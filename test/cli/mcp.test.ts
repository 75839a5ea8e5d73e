// `pagegrade mcp`'s server in-process: the SDK's own client (or bare JSON-RPC messages) over the SDK's
// in-memory transport, against the tools the command serves. test/system/cli-mcp-stdio.test.ts runs the
// command itself over its stdin and stdout.
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { LATEST_PROTOCOL_VERSION, type CallToolResult, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { localToolServer, type LocalToolServer } from '../../src/cli/commands/mcp.ts';
import { pagegradeVersion } from '../../src/cli/version.ts';
import { checksById } from '../../src/checks/index.ts';
import { loadConfig } from '../../src/config.ts';
import { checkCatalogue } from '../../src/schemas/check-catalogue.ts';
import { goodPage, html, startSite, text, type Site } from '../support/site-server.ts';
import { PATIENT } from './run-binary.ts';
import { runInProcess } from './run-cli.ts';

const NO_CHROMIUM = '/nonexistent/chromium';

let site: Site;
const servers: LocalToolServer[] = [];
const stderr: string[] = [];

/** The stdio command's tools under these settings (on top of PATIENT), as a fresh server. */
function toolServer(env: Record<string, string> = {}): LocalToolServer {
  const heard = new Writable({
    write(chunk: Buffer, _encoding, done) {
      stderr.push(chunk.toString());
      done();
    },
  });
  const server = localToolServer(loadConfig({ ...PATIENT, ...env }), heard);
  servers.push(server);
  return server;
}

async function connectedClient(env: Record<string, string> = {}): Promise<Client> {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await toolServer(env).server.connect(serverSide);
  const client = new Client({ name: 'test', version: '1.0.0' });
  await client.connect(clientSide);
  return client;
}

/** Sends bare JSON-RPC messages (as a client the SDK does not make would) and resolves with the answer to `id`. */
async function rawExchange(messages: JSONRPCMessage[], id: number): Promise<Record<string, unknown>> {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await toolServer().server.connect(serverSide);
  const answer = new Promise<Record<string, unknown>>((resolve) => {
    clientSide.onmessage = (message) => {
      if ('id' in message && message.id === id) resolve(message as Record<string, unknown>);
    };
  });
  await clientSide.start();
  for (const message of messages) await clientSide.send(message);
  return answer;
}

const initialize = (protocolVersion: string): JSONRPCMessage => ({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion, capabilities: {}, clientInfo: { name: 'raw', version: '0' } },
});

/** A successful result's one text item, parsed. */
function textJson(result: CallToolResult): unknown {
  expect(result.content).toHaveLength(1);
  const [item] = result.content;
  if (item.type !== 'text') throw new Error(`expected a text item, got ${item.type}`);
  return JSON.parse(item.text);
}

/** A failure: isError, no structured content, one text item; its text. */
function failureText(result: CallToolResult): string {
  expect(result.isError).toBe(true);
  expect(result).not.toHaveProperty('structuredContent');
  expect(result.content).toHaveLength(1);
  const [item] = result.content;
  if (item.type !== 'text') throw new Error(`expected a text item, got ${item.type}`);
  return item.text;
}

beforeAll(async () => {
  site = await startSite({ '/': html(goodPage()), '/plain': text('not a web page') });
});

afterAll(async () => {
  await Promise.all(servers.map((server) => server.close()));
  await site.close();
});

describe('initialize', () => {
  it('asking for 2025-06-18: answered with 2025-06-18, as pagegrade at its version, with tools', async () => {
    const answer = await rawExchange([initialize('2025-06-18')], 1);
    expect(answer.result).toMatchObject({
      protocolVersion: '2025-06-18',
      serverInfo: { name: 'pagegrade', version: pagegradeVersion() },
      capabilities: { tools: expect.any(Object) },
    });
  });

  it('asking for a version it does not know: answered with the newest it knows', async () => {
    const answer = await rawExchange([initialize('2999-12-31')], 1);
    expect(answer.result).toMatchObject({ protocolVersion: LATEST_PROTOCOL_VERSION });
    expect(LATEST_PROTOCOL_VERSION >= '2025-06-18').toBe(true);
  });
});

describe('tools/list', () => {
  it('lists analyze_url and list_checks with their arguments, descriptions and readOnlyHint', async () => {
    const client = await connectedClient();
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(['analyze_url', 'list_checks']);
    const [analyze, checks] = tools;
    expect(analyze.inputSchema).toMatchObject({
      type: 'object',
      properties: { url: { type: 'string' }, render: { type: 'boolean' }, lab: { type: 'boolean' } },
      required: ['url'],
    });
    expect(Object.keys(analyze.inputSchema.properties ?? {})).toEqual(['url', 'render', 'lab']);
    expect(analyze.annotations?.readOnlyHint).toBe(false);
    expect(checks.inputSchema).toMatchObject({ type: 'object', properties: {} });
    expect(checks.inputSchema.required ?? []).toEqual([]);
    expect(checks.annotations?.readOnlyHint).toBe(true);
    for (const tool of tools) expect(tool.description?.length).toBeGreaterThan(20);
  });
});

describe('analyze_url', () => {
  it('answers the agent report of the page as structured content, and the same JSON as text', async () => {
    const client = await connectedClient();
    const [result, cli] = await Promise.all([
      client.callTool({ name: 'analyze_url', arguments: { url: site.url('/') } }) as Promise<CallToolResult>,
      runInProcess(['analyze', site.url('/'), '--json'], PATIENT),
    ]);
    expect(result.isError).toBeFalsy();
    const report = result.structuredContent as Record<string, unknown>;
    expect(textJson(result)).toStrictEqual(report);
    expect(Object.keys(report)).toEqual(['url', 'project', 'score', 'result', 'issues', 'generated_at', 'failed']);
    // The same page analyse says of, its failed checks in the agent report's order and words.
    const analysed = JSON.parse(cli.stdout) as { score: number; result: string; issues: unknown; results: Record<string, { passed: boolean | null; importance: string }> };
    expect(report).toMatchObject({ url: site.url('/'), project: new URL(site.origin).host, score: analysed.score, result: analysed.result, issues: analysed.issues });
    const failed = report.failed as { id: string; importance: string; title: string }[];
    const failing = Object.entries(analysed.results).filter(([, check]) => check.passed === false);
    expect(failed.map(({ id }) => id).sort()).toEqual(failing.map(([id]) => id).sort());
    // Plain http on loopback: "served over https" fails, a high-importance check.
    expect(failed).toContainEqual(expect.objectContaining({ id: 'https_encryption', importance: 'high', title: checksById.get('https_encryption')?.failureTitle }));
    const rank = { high: 0, medium: 1, low: 2 } as Record<string, number>;
    const order = failed.map(({ importance, id }) => [rank[importance], id] as const);
    expect(order).toEqual([...order].sort((a, b) => a[0] - b[0] || (a[1] < b[1] ? -1 : 1)));
    // A check that threw would be said on stderr; none did.
    expect(stderr).toEqual([]);
  });

  it.each([
    ['a URL that is not http(s)', 'ftp://example.com/file'],
    ['a page that is not HTML', '/plain'],
  ])('%s: an error result with the sentence analyze says of it', async (_name, path) => {
    const url = path.startsWith('/') ? site.url(path) : path;
    const client = await connectedClient();
    const [result, cli] = await Promise.all([
      client.callTool({ name: 'analyze_url', arguments: { url } }) as Promise<CallToolResult>,
      runInProcess(['analyze', url, '--json'], PATIENT),
    ]);
    const { error } = JSON.parse(cli.stdout) as { error: string };
    expect(error.length).toBeGreaterThan(10);
    expect(failureText(result)).toBe(error);
  });

  it('without a url: an error result naming the argument', async () => {
    const client = await connectedClient();
    const result = (await client.callTool({ name: 'analyze_url', arguments: { render: false } })) as CallToolResult;
    expect(failureText(result)).toMatch(/\burl\b/);
  });

  it('render or lab without Chromium: an error result saying where it was looked for', async () => {
    const client = await connectedClient({ PAGEGRADE_CHROMIUM_PATH: NO_CHROMIUM });
    const result = (await client.callTool({ name: 'analyze_url', arguments: { url: site.url('/'), render: true, lab: true } })) as CallToolResult;
    expect(failureText(result)).toBe(
      `render and lab need Chromium, and there is none at ${NO_CHROMIUM} (set PAGEGRADE_CHROMIUM_PATH, or apt-get install chromium).`,
    );
  });
});

describe('list_checks', () => {
  it('answers the check catalogue of GET /api/v1/checks as {data}', async () => {
    const client = await connectedClient();
    const result = (await client.callTool({ name: 'list_checks', arguments: {} })) as CallToolResult;
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toStrictEqual(JSON.parse(JSON.stringify({ data: checkCatalogue() })));
    expect(textJson(result)).toStrictEqual(result.structuredContent);
    expect(checkCatalogue()).toContainEqual(expect.objectContaining({ id: 'https_encryption', failure_title: checksById.get('https_encryption')?.failureTitle }));
  });
});

describe('other tools', () => {
  it('one the stdio server does not have is refused', async () => {
    const client = await connectedClient();
    const result = (await client.callTool({ name: 'get_report', arguments: { id: 1 } })) as CallToolResult;
    expect(failureText(result)).toContain('get_report');
  });
});

describe('the command', () => {
  it('mcp --help says what it serves; an argument is a usage error', async () => {
    const [help, extra] = await Promise.all([runInProcess(['mcp', '--help']), runInProcess(['mcp', 'https://example.com/'])]);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/^Usage: pagegrade mcp\n/);
    expect(help.stdout).toContain('analyze_url');
    expect(extra.code).toBe(2);
    expect(extra.stdout).toBe('');
  });

  it('a bad setting exits 2 before the protocol starts: nothing on stdout', async () => {
    const run = await runInProcess(['mcp'], { PAGEGRADE_FETCH_TIMEOUT_MS: 'soon' });
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain('PAGEGRADE_FETCH_TIMEOUT_MS');
  });
});
