// List and show bodies match the documented response schemas exactly, and a search's total follows
// every change of the account's reports.
import { FormatRegistry, TypeRegistry } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ProjectListResponse } from '../../src/schemas/projects.ts';
import { ReportListResponse, ReportResponse } from '../../src/schemas/reports.ts';
import { startTestApp, type TestApp } from '../support/api-app.ts';
import { testDialects } from '../support/databases.ts';
import { startSite, type Site } from '../support/site-server.ts';
import {
  ISO_TIME,
  VERDICT_PAGES,
  body,
  call,
  createReport,
  expectJson,
  listReports,
  type Account,
} from '../support/api-fixtures.ts';

if (!FormatRegistry.Has('date-time')) FormatRegistry.Set('date-time', (value) => ISO_TIME.test(value));
// The schemas' closed sets are Type.Unsafe enums (schemas/common.ts oneOf); TypeBox checks them here.
if (!TypeRegistry.Has('Unsafe')) TypeRegistry.Set<{ enum: unknown[] }>('Unsafe', (schema, value) => schema.enum.includes(value));

/** Every field the schema names, of its type, and nothing it does not name. */
function expectMatches(schema: Parameters<typeof Value.Check>[0], value: unknown): void {
  const errors = [...Value.Errors(schema, value)].map((error) => `${error.path}: ${error.message}`);
  expect(errors).toEqual([]);
  expect(Value.Clean(schema, Value.Clone(value))).toEqual(value);
}

describe.each(testDialects())('bodies sent from stored JSON [%s]', (dialect) => {
  let t: TestApp;
  let site: Site;
  let owner: Account;
  let changingVerdict = VERDICT_PAGES.good;

  beforeAll(async () => {
    t = await startTestApp(dialect);
    site = await startSite({
      '/pricing': VERDICT_PAGES.good,
      '/pricing-old': VERDICT_PAGES.decent,
      '/blog': VERDICT_PAGES.bad,
      '/pricing-changing': (request, response) => changingVerdict(request, response),
    });
    owner = await t.createAccount('stored-json');
    await createReport(t, owner, site.url('/pricing'));
    await createReport(t, owner, site.url('/pricing-old'), { privacy: 2, password: 'correct horse' });
    await createReport(t, owner, site.url('/blog'));
  });
  afterAll(async () => {
    await site?.close();
    await t?.close();
  });

  it('list and show bodies match their response schemas and the report create answered', async () => {
    const created = await createReport(t, owner, site.url('/pricing?ref="quoted"&ü=1'));
    const listResponse = await call(t, owner, 'GET', '/api/v1/reports');
    expectJson(listResponse);
    expectMatches(ReportListResponse, body(listResponse));

    const showResponse = await call(t, owner, 'GET', `/api/v1/reports/${created.id}`);
    expectJson(showResponse);
    expectMatches(ReportResponse, body(showResponse));
    expect(body(showResponse).data).toEqual(created);
    const { results: _results, rendered: _rendered, lab: _lab, structured_data: _structuredData, ...summary } = created;
    expect(body(listResponse).data[0]).toEqual(summary);

    const projectsResponse = await call(t, owner, 'GET', '/api/v1/projects');
    expectJson(projectsResponse);
    expectMatches(ProjectListResponse, body(projectsResponse));
    expect(body(projectsResponse).data).toEqual([
      expect.objectContaining({ project: new URL(site.origin).host, reports_count: 4, result_counts: { good: 2, decent: 1, bad: 1 } }),
    ]);
  });

  it('a search total follows every change of the account\'s reports', async () => {
    const total = async (query: string) => (await listReports(t, owner, query)).meta.total;
    const before = await total('search=pricing');
    const beforeGood = await total('search=pricing&result=good');

    const added = await createReport(t, owner, site.url('/pricing-changing'));
    expect(await total('search=pricing')).toBe(before + 1);
    expect(await total('search=pricing&result=good')).toBe(beforeGood + 1);

    changingVerdict = VERDICT_PAGES.bad;
    const regenerated = await call(t, owner, 'PUT', `/api/v1/reports/${added.id}`, { results: 1 });
    expect(body(regenerated).data.result).toBe('bad');
    expect(await total('search=pricing&result=good')).toBe(beforeGood);
    expect(await total('search=pricing&result=bad')).toBeGreaterThanOrEqual(1);

    expect((await call(t, owner, 'DELETE', `/api/v1/reports/${added.id}`)).statusCode).toBe(200);
    expect(await total('search=pricing')).toBe(before);

    const project = new URL(site.origin).host;
    expect((await call(t, owner, 'DELETE', `/api/v1/projects/${encodeURIComponent(project)}`)).statusCode).toBe(200);
    expect(await total('search=pricing')).toBe(0);
  });
});
