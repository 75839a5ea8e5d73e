// POST /mcp (docs/organisations.md, "MCP over HTTP"): the SDK's own client over Streamable HTTP against
// the app listening on loopback, with the same bearer keys as the API: all eight tools, acting in the
// key's organisation with its scope and the caller's role; 401 without a key on every method.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { pagegradeVersion } from '../../src/cli/version.ts';
import { startTestApp, type TestApp } from '../support/api-app.ts';
import { testDialects } from '../support/databases.ts';
import { goodPage, html, startSite, type Site } from '../support/site-server.ts';
import { body, call, type Account } from '../support/api-fixtures.ts';

describe.each(testDialects())('POST /mcp [%s]', (dialect) => {
  let t: TestApp;
  let site: Site;
  let origin: string;
  const clients: Client[] = [];

  beforeAll(async () => {
    t = await startTestApp(dialect);
    site = await startSite({ '/': html(goodPage()) });
    origin = await t.app.listen({ host: '127.0.0.1', port: 0 });
  });
  afterAll(async () => {
    for (const client of clients) await client.close();
    await t?.close();
    await site?.close();
  });

  async function connect(key: string, query = ''): Promise<Client> {
    const transport = new StreamableHTTPClientTransport(new URL(`${origin}/mcp${query}`), { requestInit: { headers: { authorization: `Bearer ${key}` } } });
    const client = new Client({ name: 'test', version: '1.0.0' });
    await client.connect(transport);
    clients.push(client);
    return client;
  }

  const tool = async (client: Client, name: string, args: Record<string, unknown> = {}) => (await client.callTool({ name, arguments: args })) as CallToolResult;
  const failure = (result: CallToolResult) => {
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toBeUndefined();
    return (result.content[0] as { text: string }).text;
  };

  it('initialises as pagegrade with tools, lists all eight with their schemas and read-only hints', async () => {
    const ana = await t.createAccount('ana');
    const client = await connect(ana.key);
    expect(client.getServerVersion()).toMatchObject({ name: 'pagegrade', version: pagegradeVersion() });
    expect(client.getServerCapabilities()?.tools).toBeDefined();
    const { tools } = await client.listTools();
    expect(tools.map((each) => [each.name, each.annotations?.readOnlyHint])).toEqual([
      ['analyze_url', false], ['get_report', true], ['list_reports', true], ['report_diff', true],
      ['start_crawl', false], ['get_crawl', true], ['crawl_issues', true], ['list_checks', true],
    ]);
    expect(tools.find((each) => each.name === 'get_report')?.inputSchema).toMatchObject({ type: 'object', required: ['id'] });
  });

  it('analyses, reads, lists and diffs reports in the key\'s organisation, as the API would', async () => {
    const ana = await t.createAccount('ana');
    const client = await connect(ana.key);
    const made = await tool(client, 'analyze_url', { url: site.url('/') });
    expect(made.isError ?? false).toBe(false);
    const report = made.structuredContent as Record<string, unknown>;
    expect(report).toMatchObject({ url: site.url('/'), organization: ana.organization, state: 'done', report_url: `${origin}/reports/${report.id}` });
    expect(JSON.parse((made.content[0] as { text: string }).text)).toEqual(report);
    const api = body(await call(t, ana, 'GET', `/api/v1/reports/${report.id}`)).data;
    expect(report.score).toBe(api.score);

    expect((await tool(client, 'get_report', { id: report.id })).structuredContent).toEqual(report);
    const listed = (await tool(client, 'list_reports', { per_page: 10 })).structuredContent as { data: { id: number }[]; meta: Record<string, unknown> };
    const viaApi = body(await call(t, ana, 'GET', '/api/v1/reports?per_page=10'));
    expect(listed.data).toEqual(viaApi.data);
    expect(listed.meta).toEqual({ ...viaApi.meta, path: `${origin}/api/v1/reports` });
    expect(failure(await tool(client, 'report_diff', { id: report.id }))).toBe(
      'The given data was invalid.\nfrom: ' + body(await call(t, ana, 'GET', `/api/v1/reports/${report.id}/diff`)).errors.from[0],
    );
    expect(failure(await tool(client, 'get_report', { id: 999999 }))).toBe('Resource not found.');
    const eve = await t.createAccount('eve');
    expect(failure(await tool(await connect(eve.key), 'get_report', { id: report.id }))).toBe('Resource not found.');
    expect(failure(await tool(client, 'get_report', { id: 'seven' }))).toContain('id');
    const checks = (await tool(client, 'list_checks')).structuredContent as { data: unknown[] };
    expect(checks.data).toEqual((await t.app.inject({ method: 'GET', url: '/api/v1/checks' })).json().data);
  });

  it('starts and reads a crawl and its issues', async () => {
    const ana = await t.createAccount('ana');
    const client = await connect(ana.key);
    const started = await tool(client, 'start_crawl', { url: site.url('/'), max_pages: 1 });
    const crawl = started.structuredContent as { id: number; state: string; organization: number };
    expect(crawl).toMatchObject({ state: 'queued', organization: ana.organization });
    expect((await tool(client, 'get_crawl', { id: crawl.id })).structuredContent).toMatchObject({ id: crawl.id });
    const issues = await tool(client, 'crawl_issues', { id: crawl.id });
    const viaApi = await call(t, ana, 'GET', `/api/v1/crawls/${crawl.id}/issues`);
    if (viaApi.statusCode === 200) expect(issues.structuredContent).toEqual({ data: body(viaApi).data });
    else expect(failure(issues)).toBe(body(viaApi).message);
  });

  it('a read key reads but cannot analyse or crawl; a viewer cannot either; an organisation is picked as in the API', async () => {
    const ana = await t.createAccount('ana');
    const reader = body(await call(t, ana, 'POST', '/api/v1/keys', { scope: 'read' })).data.api_key;
    const readClient = await connect(reader);
    expect(failure(await tool(readClient, 'analyze_url', { url: site.url('/') }))).toBe('This API key can only read (scope read).');
    expect(failure(await tool(readClient, 'start_crawl', { url: site.url('/') }))).toBe('This API key can only read (scope read).');
    expect((await tool(readClient, 'list_reports')).isError ?? false).toBe(false);

    const fernhill = body(await call(t, ana, 'POST', '/api/v1/organizations', { name: 'Fernhill' })).data;
    const vera: Account = await t.createAccount('vera');
    await call(t, ana, 'POST', `/api/v1/organizations/${fernhill.id}/members`, { email: vera.email, role: 'viewer' });
    const viewer = await connect(vera.key, `?organization=${fernhill.id}`);
    expect(failure(await tool(viewer, 'analyze_url', { url: site.url('/') }))).toBe('Your role in this organisation (viewer) cannot create reports.');
    expect(failure(await tool(viewer, 'start_crawl', { url: site.url('/') }))).toBe('Your role in this organisation (viewer) cannot start crawls.');

    const inFernhill = await connect(ana.key, `?organization=${fernhill.id}`);
    const made = (await tool(inFernhill, 'analyze_url', { url: site.url('/') })).structuredContent as { id: number; organization: number };
    expect(made.organization).toBe(fernhill.id);
    expect(((await tool(viewer, 'list_reports')).structuredContent as { data: { id: number }[] }).data.map((r) => r.id)).toEqual([made.id]);
  });

  it('without a key, or with a revoked one, every method is a 401 with WWW-Authenticate; GET and DELETE are 405 with a key', async () => {
    for (const method of ['POST', 'GET', 'DELETE']) {
      const response = await fetch(`${origin}/mcp`, { method, headers: { accept: 'application/json, text/event-stream', 'content-type': 'application/json' }, body: method === 'POST' ? '{}' : undefined });
      expect(response.status, method).toBe(401);
      expect(response.headers.get('www-authenticate')).toBe('Bearer');
      expect(await response.json()).toMatchObject({ message: 'Unauthenticated.', status: 401 });
    }
    const ana = await t.createAccount('ana');
    const other = await t.createAccount('stranger');
    for (const method of ['GET', 'DELETE']) {
      const response = await fetch(`${origin}/mcp`, { method, headers: { authorization: `Bearer ${ana.key}` } });
      expect([response.status, response.headers.get('allow')]).toEqual([405, 'POST']);
    }
    const notMember = await fetch(`${origin}/mcp`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ana.key}`, 'pagegrade-organization': String(other.organization), accept: 'application/json, text/event-stream', 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(notMember.status).toBe(404);
  });
});
