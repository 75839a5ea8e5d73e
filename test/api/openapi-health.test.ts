// The two routes outside authentication (docs/api.md, "Outside /api/v1"): GET /health and the OpenAPI 3.1
// description, which must describe every operation and parameter of the contract.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/api-app.ts';
import { testDialects } from '../support/databases.ts';
import { body, expectJson, type Body } from '../support/api-fixtures.ts';

/** The parameter of an OpenAPI operation by name and place. */
function parameter(operation: Body, name: string, place: 'query' | 'path'): Body {
  const found = (operation.parameters ?? []).find((entry: Body) => entry.name === name && entry.in === place);
  expect(found, `${place} parameter ${name}`).toBeDefined();
  return found;
}

/** Property names of a request body schema (form or JSON), through its component when it is named. */
function bodyProperties(document: Body, operation: Body): string[] {
  const content = operation.requestBody?.content ?? {};
  let schema = content['application/x-www-form-urlencoded']?.schema ?? content['application/json']?.schema;
  expect(schema, 'request body schema').toBeDefined();
  if (schema.$ref) schema = document.components.schemas[schema.$ref.replace('#/components/schemas/', '')];
  return Object.keys(schema.properties ?? {});
}

describe.each(testDialects())('outside authentication [%s]', (dialect) => {
  let t: TestApp;
  let document: Body;

  beforeAll(async () => {
    t = await startTestApp(dialect);
    document = (await t.app.inject({ method: 'GET', url: '/api/v1/openapi.json' })).json();
  });
  afterAll(async () => {
    await t?.close();
  });

  describe('GET /health', () => {
    it('answers 200 {"status":"ok"} without a key', async () => {
      const response = await t.app.inject({ method: 'GET', url: '/health' });
      expect(response.statusCode).toBe(200);
      expectJson(response);
      expect(body(response)).toEqual({ status: 'ok' });
    });
  });

  describe('GET /api/v1/openapi.json', () => {
    it('answers 200 JSON without a key', async () => {
      const response = await t.app.inject({ method: 'GET', url: '/api/v1/openapi.json' });
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toMatch(/^application\/json/);
      expect(response.headers['www-authenticate']).toBeUndefined();
    });

    it('is an OpenAPI 3.1 document with a bearer security scheme', () => {
      expect(document.openapi).toMatch(/^3\.1\./);
      expect(document.info?.title).toBeTruthy();
      const schemes = Object.values<Body>(document.components?.securitySchemes ?? {});
      expect(schemes.some((scheme) => scheme.type === 'http' && String(scheme.scheme).toLowerCase() === 'bearer')).toBe(true);
    });

    it('describes every operation of the contract', () => {
      const operations: [string, string][] = [
        ['/api/v1/reports', 'get'],
        ['/api/v1/reports', 'post'],
        ['/api/v1/reports/{id}', 'get'],
        ['/api/v1/reports/{id}', 'put'],
        ['/api/v1/reports/{id}', 'delete'],
        ['/api/v1/projects', 'get'],
        ['/api/v1/projects/{project}', 'delete'],
        ['/api/v1/account', 'get'],
        ['/api/v1/webhooks', 'get'],
        ['/api/v1/webhooks', 'post'],
        ['/api/v1/webhooks/{id}', 'delete'],
        ['/api/v1/webhooks/{id}/deliveries', 'get'],
      ];
      for (const [path, method] of operations) expect(document.paths?.[path]?.[method], `${method} ${path}`).toBeDefined();
    });

    it('lists the report list parameters with their allowed values and defaults', () => {
      const list = document.paths['/api/v1/reports'].get;
      const expectations: [string, unknown[] | null, unknown][] = [
        ['search', null, undefined],
        ['search_by', ['url'], 'url'],
        ['project', null, undefined],
        ['result', ['good', 'decent', 'bad'], undefined],
        ['sort_by', ['id', 'generated_at', 'url', 'result', 'score'], 'id'],
        ['sort', ['desc', 'asc'], 'desc'],
        ['per_page', [10, 25, 50, 100], 100],
        ['page', null, 1],
        ['format', ['json', 'csv'], 'json'],
      ];
      for (const [name, allowed, fallback] of expectations) {
        const schema = parameter(list, name, 'query').schema;
        if (allowed) expect([...schema.enum].sort(), name).toEqual([...allowed].sort());
        if (fallback !== undefined) expect(schema.default, name).toBe(fallback);
      }
    });

    it('lists the project list parameters with their allowed values and defaults', () => {
      const list = document.paths['/api/v1/projects'].get;
      const expectations: [string, unknown[] | null, unknown][] = [
        ['search', null, undefined],
        ['search_by', ['project'], 'project'],
        ['sort_by', ['created_at', 'project'], 'created_at'],
        ['sort', ['desc', 'asc'], 'desc'],
        ['per_page', [10, 25, 50, 100], 100],
        ['page', null, 1],
        ['format', ['json', 'csv'], 'json'],
      ];
      for (const [name, allowed, fallback] of expectations) {
        const schema = parameter(list, name, 'query').schema;
        if (allowed) expect([...schema.enum].sort(), name).toEqual([...allowed].sort());
        if (fallback !== undefined) expect(schema.default, name).toBe(fallback);
      }
    });

    it('documents the lists\' CSV answer beside their JSON one', () => {
      for (const path of ['/api/v1/reports', '/api/v1/projects']) {
        const content = document.paths[path].get.responses['200'].content;
        expect(Object.keys(content).sort(), path).toEqual(['application/json', 'text/csv']);
        expect(content['text/csv'].schema.type, path).toBe('string');
      }
    });

    it('describes the create and update bodies and the path parameters', () => {
      const create = document.paths['/api/v1/reports'].post;
      expect(bodyProperties(document, create).sort()).toEqual(['async', 'lab', 'lab_profile', 'password', 'privacy', 'render', 'schedule', 'url']);
      const update = document.paths['/api/v1/reports/{id}'].put;
      expect(bodyProperties(document, update).sort()).toEqual(['async', 'lab', 'lab_profile', 'password', 'privacy', 'render', 'results', 'schedule']);
      parameter(document.paths['/api/v1/reports/{id}'].get, 'id', 'path');
      parameter(document.paths['/api/v1/projects/{project}'].delete, 'project', 'path');
    });

    it('documents the 201 of create and the error responses', () => {
      const create = document.paths['/api/v1/reports'].post;
      expect(create.responses['201']).toBeDefined();
      for (const status of ['401', '422', '429']) expect(create.responses[status], status).toBeDefined();
      expect(document.paths['/api/v1/reports/{id}'].get.responses['404']).toBeDefined();
      expect(document.paths['/api/v1/projects/{project}'].delete.responses['404']).toBeDefined();
    });
  });
});
