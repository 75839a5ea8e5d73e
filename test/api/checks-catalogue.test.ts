// GET /api/v1/checks (docs/api.md, "Checks"): every check with what it means and how to fix it,
// without an API key, in the envelope and conventions of the rest of the API.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allChecks } from '../../src/checks/index.ts';
import { siteChecks } from '../../src/crawl/site-checks/index.ts';
import { startTestApp, type TestApp } from '../support/api-app.ts';
import { body, expectJson, type Body } from '../support/api-fixtures.ts';

describe('GET /api/v1/checks', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp('sqlite');
  });
  afterAll(async () => {
    await t?.close();
  });

  it('answers 200 {data, status} without a key, one entry per check in report order then per site check, with exactly the contract fields', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/v1/checks' });
    expect(response.statusCode).toBe(200);
    expectJson(response);
    expect(response.headers['www-authenticate']).toBeUndefined();
    const parsed: Body = body(response);
    expect(Object.keys(parsed).sort()).toEqual(['data', 'status']);
    expect(parsed.status).toBe(200);
    expect(parsed.data.map((entry: Body) => entry.id)).toEqual([...allChecks, ...siteChecks].map((check) => check.id));
    const common = ['category', 'description', 'failure_title', 'how_to_fix', 'id', 'importance', 'points', 'title'];
    // The structured-data checks also name the schema.org release, and rich_results the Google features it judges.
    const extra: Record<string, string[]> = { structured_data_valid: ['schema_org_version'], rich_results: ['features', 'schema_org_version'] };
    for (const entry of parsed.data) {
      expect(Object.keys(entry).sort()).toEqual([...common, ...(extra[entry.id] ?? [])].sort());
    }
  });

  it('names the schema.org release and every Google rich-result feature, current and retired', async () => {
    const byId = new Map<string, Body>(body(await t.app.inject({ method: 'GET', url: '/api/v1/checks' })).data.map((entry: Body) => [entry.id, entry]));
    expect(byId.get('structured_data_valid')).toMatchObject({ category: 'miscellaneous', importance: 'medium', points: 5, schema_org_version: '30.0' });
    const richResults = byId.get('rich_results')!;
    expect(richResults).toMatchObject({ category: 'miscellaneous', importance: 'medium', points: 5, schema_org_version: '30.0' });
    expect(richResults.features).toHaveLength(23);
    expect(richResults.features[2]).toEqual({
      feature: 'Product snippets',
      types: ['Product'],
      subtypes: true,
      retired: null,
      source: 'https://developers.google.com/search/docs/appearance/structured-data/product-snippet',
      read: '2026-12-01',
    });
    expect(richResults.features.filter((feature: Body) => feature.retired !== null).map((feature: Body) => feature.feature)).toEqual([
      'FAQ', 'HowTo', 'Sitelinks search box', 'Fact check', 'Special announcement', 'Estimated salary',
    ]);
    expect(byId.get('rich_result_errors')).toMatchObject({ category: 'site', importance: 'medium' });
  });

  it('gives each check its category, importance, points and the texts people read', async () => {
    const { data } = body(await t.app.inject({ method: 'GET', url: '/api/v1/checks' }));
    const byId = new Map<string, Body>(data.map((entry: Body) => [entry.id, entry]));
    expect(byId.get('title')).toEqual({
      id: 'title',
      category: 'seo',
      importance: 'high',
      points: 10,
      title: allChecks.find((check) => check.id === 'title')!.title,
      failure_title: allChecks.find((check) => check.id === 'title')!.failureTitle,
      description: allChecks.find((check) => check.id === 'title')!.description,
      how_to_fix: allChecks.find((check) => check.id === 'title')!.howToFix,
    });
    expect(byId.get('ai_crawlers')).toMatchObject({ category: 'miscellaneous', importance: 'low', points: 2 });
    expect(byId.get('canonical')).toMatchObject({ importance: 'medium', points: 5 });
    const brokenLinks = siteChecks.find((check) => check.id === 'broken_links')!;
    expect(byId.get('broken_links')).toEqual({
      id: 'broken_links',
      category: 'site',
      importance: 'high',
      points: 10,
      title: brokenLinks.title,
      failure_title: brokenLinks.failureTitle,
      description: brokenLinks.description,
      how_to_fix: brokenLinks.howToFix,
    });
    expect(byId.get('deep_pages')).toMatchObject({ category: 'site', importance: 'low', points: 2 });
  });

  it('answers another method with 405 and an Allow header', async () => {
    const response = await t.app.inject({ method: 'POST', url: '/api/v1/checks', payload: {} });
    expect(response.statusCode).toBe(405);
    expect(response.headers.allow).toBe('GET, HEAD');
  });

  it('is described in the OpenAPI document, with no security and a named response', async () => {
    const document: Body = (await t.app.inject({ method: 'GET', url: '/api/v1/openapi.json' })).json();
    const operation = document.paths['/api/v1/checks'].get;
    expect(operation.security).toEqual([]);
    expect(operation.responses['200'].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/CheckList' });
    expect(Object.keys(document.components.schemas.CheckDescription.properties).sort()).toEqual([
      'category', 'description', 'failure_title', 'features', 'how_to_fix', 'id', 'importance', 'points', 'schema_org_version', 'title',
    ]);
    expect(document.components.schemas.CheckDescription.required).not.toContain('features');
  });

  it('still keeps the rest of /api/v1 behind the key', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/account' })).statusCode).toBe(401);
  });
});
