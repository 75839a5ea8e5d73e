// The OpenAPI document types what the API answers: named success responses, both body encodings, and
// for every check its result with the schema of its value, which real reports keep to.
import { Value } from '@sinclair/typebox/value';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allChecks } from '../../src/checks/index.ts';
import { ReportResults } from '../../src/schemas/check-results.ts';
import { startTestApp, type TestApp } from '../support/api-app.ts';
import { BAD_PAGE, createReport, showReport, type Body } from '../support/api-fixtures.ts';
import { goodPage, html, startSite, type Site } from '../support/site-server.ts';

/**
 * A schema as @fastify/swagger writes it into OpenAPI 3.1: plain JSON, `const: x` as `enum: [x]`, and a
 * record's `patternProperties: {"^(.*)$": s}` as `additionalProperties: s`.
 */
function asDocumented(schema: unknown): unknown {
  return JSON.parse(JSON.stringify(schema), (_key, value) => {
    if (value === null || typeof value !== 'object' || Array.isArray(value)) return value;
    if ('const' in value) {
      const { const: constant, ...rest } = value;
      return { ...rest, enum: [constant] };
    }
    if (value.patternProperties?.['^(.*)$']) {
      const { patternProperties, ...rest } = value;
      return { ...rest, additionalProperties: patternProperties['^(.*)$'] };
    }
    return value;
  });
}

describe('the OpenAPI document, typed', () => {
  let t: TestApp;
  let site: Site;
  let document: Body;

  beforeAll(async () => {
    t = await startTestApp('sqlite');
    site = await startSite({ '/': html(goodPage()), '/bad': html(BAD_PAGE), '/gone': html(goodPage('Gone'), 404) });
    document = (await t.app.inject({ method: 'GET', url: '/api/v1/openapi.json' })).json();
  });
  afterAll(async () => {
    await site?.close();
    await t?.close();
  });

  const schemaOf = (ref: string): Body => document.components.schemas[ref.replace('#/components/schemas/', '')];

  it('names the success response of every operation and describes it', () => {
    const expected: Record<string, string> = {
      'get /api/v1/reports': 'ReportList',
      'post /api/v1/reports': 'ReportCreated',
      'get /api/v1/reports/{id}': 'ReportResponse',
      'put /api/v1/reports/{id}': 'ReportResponse',
      'delete /api/v1/reports/{id}': 'ReportDeleted',
      'get /api/v1/projects': 'ProjectList',
      'delete /api/v1/projects/{project}': 'ProjectDeleted',
      'get /api/v1/account': 'AccountResponse',
      'get /api/v1/checks': 'CheckList',
      'post /api/v1/webhooks': 'WebhookCreated',
      'get /api/v1/webhooks': 'WebhookList',
      'delete /api/v1/webhooks/{id}': 'WebhookDeleted',
      'get /api/v1/webhooks/{id}/deliveries': 'WebhookDeliveryList',
    };
    for (const [operation, name] of Object.entries(expected)) {
      const [method, path] = operation.split(' ');
      const responses = document.paths[path][method].responses;
      const success = Object.keys(responses).find((status) => status.startsWith('2'))!;
      expect(responses[success].content['application/json'].schema, operation).toEqual({ $ref: `#/components/schemas/${name}` });
      expect(responses[success].description, operation).not.toBe('Default Response');
      expect(schemaOf(name).type, name).toBe('object');
    }
  });

  it('documents the form-encoded bodies beside JSON, with the same schema', () => {
    for (const [path, method, name] of [
      ['/api/v1/reports', 'post', 'CreateReport'],
      ['/api/v1/reports/{id}', 'put', 'UpdateReport'],
      ['/api/v1/webhooks', 'post', 'CreateWebhook'],
    ]) {
      const content = document.paths[path][method].requestBody.content;
      expect(Object.keys(content).sort(), `${method} ${path}`).toEqual(['application/json', 'application/x-www-form-urlencoded']);
      for (const media of Object.values<Body>(content)) expect(media.schema).toEqual({ $ref: `#/components/schemas/${name}` });
    }
  });

  it('gives every check a named result whose value has that check\'s schema', () => {
    // Null before a report's first run (async=1), else the results object.
    const [resultsRef, noRun] = schemaOf('Report').properties.results.anyOf;
    expect(noRun).toEqual({ type: 'null' });
    const results = schemaOf(resultsRef.$ref);
    expect(Object.keys(results.properties)).toEqual(allChecks.map((check) => check.id));
    for (const check of allChecks) {
      const result = schemaOf(results.properties[check.id].$ref);
      expect(result.properties.importance.enum, check.id).toEqual([check.importance]);
      expect(result.properties.category.enum, check.id).toEqual([check.category]);
      const [valueSchema, nullSchema] = result.properties.value.anyOf;
      expect(nullSchema).toEqual({ type: 'null' });
      expect(valueSchema, check.id).toEqual(asDocumented(check.value));
    }
  });

  it('describes the results real reports have: created, shown, of a good, a bad and an error page', async () => {
    const account = await t.createAccount();
    for (const path of ['/', '/bad', '/gone']) {
      const created = await createReport(t, account, site.url(path));
      const shown = await showReport(t, account, created.id);
      for (const report of [created, shown]) {
        const problems = [...Value.Errors(ReportResults, report.results)].map((error) => `${error.path}: ${error.message}`);
        expect(problems, path).toEqual([]);
        expect(Object.keys(report.results)).toEqual(allChecks.map((check) => check.id));
      }
      // written by JSON.stringify: nothing a compiled serializer could have dropped
      expect(created.results).toEqual(shown.results);
    }
  });
});
