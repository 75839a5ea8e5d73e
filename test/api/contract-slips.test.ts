// Contract slips an attack on the API found: paths under /api with a NUL answered Fastify's plain-text
// 404, WebDAV and TRACE methods on known paths a 404 instead of 405 with Allow, and a tab after
// "Bearer" was taken as the separator the RFCs define as spaces.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NOT_FOUND_BODY } from '../../src/http/errors.ts';
import { startTestApp, type TestApp } from '../support/api-app.ts';
import { testDialects } from '../support/databases.ts';

describe.each(testDialects())('contract slips [%s]', (dialect) => {
  let t: TestApp;
  let auth: { authorization: string };
  let key: string;

  beforeAll(async () => {
    t = await startTestApp(dialect);
    ({ auth, key } = await t.createAccount('slips'));
  });
  afterAll(() => t?.close());

  it.each(['/api/v1/%00', '/api/%00', '/api/v1/reports%00', '/api/v1/%00/x', '/api/v1/reports%00?search=%00'])(
    '%s answers the JSON 404',
    async (url) => {
      const response = await t.app.inject({ method: 'GET', url, headers: auth });
      expect(response.statusCode).toBe(404);
      expect(response.headers['content-type']).toMatch(/^application\/json/);
      expect(response.json()).toEqual(NOT_FOUND_BODY);
    },
  );

  it.each([
    ['TRACE', '/api/v1/reports', 'GET, POST, HEAD'],
    ['PROPFIND', '/api/v1/reports', 'GET, POST, HEAD'],
    ['PROPFIND', '/api/v1/reports/1', 'GET, PUT, DELETE, HEAD'],
    ['LOCK', '/api/v1/projects/example.com', 'DELETE'],
    ['HEAD', '/api/v1/projects/example.com', 'DELETE'],
    ['TRACE', '/api/v1/account', 'GET, HEAD'],
    ['TRACE', '/health', 'GET, HEAD'],
  ] as const)('%s %s answers 405 with Allow', async (method, url, allow) => {
    const response = await t.app.inject({ method: method as 'GET', url, headers: auth });
    expect(response.statusCode).toBe(405);
    expect(response.headers.allow).toBe(allow);
    if (method !== 'HEAD') expect(response.json()).toEqual({ message: 'Method not allowed.', status: 405 });
  });

  it.each([
    ['one space', (k: string) => `Bearer ${k}`, 200],
    ['two spaces (RFC 9110: 1*SP)', (k: string) => `Bearer  ${k}`, 200],
    ['a tab', (k: string) => `Bearer\t${k}`, 401],
    ['a space and a tab', (k: string) => `Bearer \t${k}`, 401],
  ] as const)('Bearer followed by %s', async (_what, header, status) => {
    const response = await t.app.inject({ method: 'GET', url: '/api/v1/account', headers: { authorization: header(key) } });
    expect(response.statusCode).toBe(status);
  });
});
