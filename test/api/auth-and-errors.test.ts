// Authentication, the account endpoint, and the contract's cross-cutting errors and headers
// (docs/api.md, "Authentication", "Answers and errors", "Account"): 401, 404 for unknown paths, 405,
// 413, 415, JSON always, rate limit.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/http/app.ts';
import { startTestApp, type TestApp } from '../support/api-app.ts';
import { testDialects } from '../support/databases.ts';
import { goodPage, html, startSite, type Site } from '../support/site-server.ts';
import {
  ISO_TIME,
  UNAUTHENTICATED,
  body,
  call,
  createReport,
  expectJson,
  expectNotFound,
  formBody,
  listReports,
  type Account,
  type Response,
} from '../support/api-fixtures.ts';

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
const OPERATIONS: [Method, string, Record<string, string | number>?][] = [
  ['GET', '/api/v1/reports'],
  ['POST', '/api/v1/reports', { url: 'http://127.0.0.1:9/' }],
  ['GET', '/api/v1/reports/1'],
  ['PUT', '/api/v1/reports/1', { privacy: 1 }],
  ['DELETE', '/api/v1/reports/1'],
  ['GET', '/api/v1/projects'],
  ['DELETE', '/api/v1/projects/127.0.0.1%3A9'],
  ['GET', '/api/v1/account'],
];

function expectUnauthenticated(response: Response): void {
  expect(response.statusCode, response.body).toBe(401);
  expectJson(response);
  expect(body(response)).toEqual(UNAUTHENTICATED);
  expect(response.headers['www-authenticate']).toBe('Bearer');
}

function allowed(response: Response): string[] {
  return String(response.headers.allow ?? '')
    .split(',')
    .map((method) => method.trim().toUpperCase())
    .filter(Boolean);
}

describe.each(testDialects())('authentication, errors and headers [%s]', (dialect) => {
  let t: TestApp;
  let site: Site;
  let account: Account;

  beforeAll(async () => {
    t = await startTestApp(dialect);
    site = await startSite({ '/': html(goodPage()) });
    account = await t.createAccount('auth');
  });
  afterAll(async () => {
    await site?.close();
    await t?.close();
  });

  describe('401 for a missing, malformed, unknown or revoked key', () => {
    const badHeaders: [string, (key: string) => Record<string, string>][] = [
      ['no Authorization header', () => ({})],
      ['an empty header', () => ({ authorization: '' })],
      ['the scheme alone', () => ({ authorization: 'Bearer' })],
      ['the scheme and a space', () => ({ authorization: 'Bearer ' })],
      ['Basic credentials', () => ({ authorization: `Basic ${Buffer.from('user:pass').toString('base64')}` })],
      ['another scheme with the key', (key) => ({ authorization: `Token ${key}` })],
      ['the key without a scheme', (key) => ({ authorization: key })],
      ['the key with trailing junk', (key) => ({ authorization: `Bearer ${key} extra` })],
      ['an unknown key', (key) => ({ authorization: `Bearer ${key.slice(0, -4)}zzzz` })],
      ['a made-up key', () => ({ authorization: 'Bearer not-a-key-at-all' })],
    ];
    const cases = OPERATIONS.flatMap(([method, path, fields]) =>
      badHeaders.map(([name, header]) => [method, path, name, header, fields] as const),
    );
    it.each(cases)('%s %s with %s', async (method, path, _name, header, fields) => {
      const requested = site.requests.length;
      const response = await t.app.inject({
        method,
        url: path,
        headers: { ...header(account.key), ...(fields ? { 'content-type': 'application/x-www-form-urlencoded' } : {}) },
        payload: fields ? formBody(fields) : undefined,
      });
      expectUnauthenticated(response);
      expect(site.requests.length).toBe(requested);
    });

    it('a revoked key is 401 on every operation while the account\'s other key still works', async () => {
      const owner = await t.createAccount('revoke');
      const spare = await t.app.services.keys.create({ userId: owner.id, boundTo: null }, { name: 'spare' });
      const spareAuth = { authorization: `Bearer ${spare.api_key}` };
      expect((await t.app.inject({ method: 'GET', url: '/api/v1/account', headers: spareAuth })).statusCode).toBe(200);
      expect(await t.app.services.accounts.revokeKey(spare.api_key)).toBe(true);
      for (const [method, path, fields] of OPERATIONS) {
        const response = await t.app.inject({
          method,
          url: path,
          headers: { ...spareAuth, ...(fields ? { 'content-type': 'application/x-www-form-urlencoded' } : {}) },
          payload: fields ? formBody(fields) : undefined,
        });
        expectUnauthenticated(response);
      }
      expect((await call(t, owner, 'GET', '/api/v1/account')).statusCode).toBe(200);
    });

    it('a key revoked by another server process on the same database is 401 at its next request', async () => {
      // The key lookup is kept in memory while nothing in the database changes (kept-until-change.ts);
      // another process's commit (a second server, the CLI) must end that at once.
      const other = await buildApp(t.config);
      try {
        const owner = await t.createAccount('revoke-elsewhere');
        const spare = await t.app.services.keys.create({ userId: owner.id, boundTo: null }, { name: 'spare' });
        const spareAuth = { authorization: `Bearer ${spare.api_key}` };
        for (let ask = 0; ask < 3; ask++) {
          expect((await t.app.inject({ method: 'GET', url: '/api/v1/account', headers: spareAuth })).statusCode).toBe(200);
        }
        expect(await other.services.accounts.revokeKey(spare.api_key)).toBe(true);
        expectUnauthenticated(await t.app.inject({ method: 'GET', url: '/api/v1/account', headers: spareAuth }));
        expect((await call(t, owner, 'GET', '/api/v1/account')).statusCode).toBe(200);
      } finally {
        await other.close();
      }
    });

    it('every operation the OpenAPI document lists as authenticated answers the same 401, hint included', async () => {
      const document = (await t.app.inject({ method: 'GET', url: '/api/v1/openapi.json' })).json();
      const unauthenticated = document.components.schemas.Unauthenticated;
      expect(Object.keys(unauthenticated.properties)).toEqual(['message', 'hint', 'status']);
      let operations = 0;
      for (const [path, methods] of Object.entries<Record<string, { security?: unknown[]; responses: Record<string, unknown> }>>(document.paths)) {
        for (const [method, operation] of Object.entries(methods)) {
          if (operation.security?.length === 0) continue;
          expect(operation.responses['401'], `${method} ${path}`).toEqual({
            description: expect.any(String),
            content: { 'application/json': { schema: { $ref: '#/components/schemas/Unauthenticated' } } },
          });
          const url = path.replace(/\{[^}]+\}/g, '1');
          expectUnauthenticated(await t.app.inject({ method: method.toUpperCase() as Method, url, headers: { authorization: 'Bearer pg_unknown' } }));
          operations += 1;
        }
      }
      expect(operations).toBeGreaterThan(20);
    });

    it('an unauthenticated create stores nothing', async () => {
      const owner = await t.createAccount('nothing');
      const response = await t.app.inject({
        method: 'POST',
        url: '/api/v1/reports',
        headers: { authorization: `Bearer ${owner.key}x`, 'content-type': 'application/x-www-form-urlencoded' },
        payload: formBody({ url: site.url('/') }),
      });
      expectUnauthenticated(response);
      expect((await listReports(t, owner)).meta.total).toBe(0);
    });
  });

  describe('the Bearer scheme name is case-insensitive', () => {
    it.each(['Bearer', 'bearer', 'BEARER', 'bEaReR'])('%s <key>', async (scheme) => {
      const response = await t.app.inject({ method: 'GET', url: '/api/v1/account', headers: { authorization: `${scheme} ${account.key}` } });
      expect(response.statusCode, response.body).toBe(200);
    });
  });

  describe('GET /api/v1/account', () => {
    it('answers {data: {id, email, created_at}, status: 200} for the key\'s account', async () => {
      const response = await call(t, account, 'GET', '/api/v1/account');
      expect(response.statusCode).toBe(200);
      expectJson(response);
      const parsed = body(response);
      expect(Object.keys(parsed).sort()).toEqual(['data', 'status']);
      expect(parsed.status).toBe(200);
      expect(Object.keys(parsed.data).sort()).toEqual(['created_at', 'email', 'id', 'key']);
      expect(parsed.data.id).toBe(account.id);
      expect(parsed.data.email).toBe(account.email);
      expect(parsed.data.created_at).toMatch(ISO_TIME);
    });

    it('each key answers with its own account', async () => {
      const other = await t.createAccount('second');
      expect(body(await call(t, other, 'GET', '/api/v1/account')).data).toMatchObject({ id: other.id, email: other.email });
      expect(other.id).not.toBe(account.id);
    });
  });

  describe('unknown paths under /api: 404 with the not-found body', () => {
    it.each([
      ['GET', '/api/v1/nothing'],
      ['GET', '/api/v1/reports/1/results'],
      ['GET', '/api/v1/projects/a/b'],
      ['POST', '/api/v1/nothing'],
      ['GET', '/api/v2/reports'],
      ['GET', '/api/nothing'],
      ['GET', '/api'],
    ] as const)('%s %s', async (method, path) => {
      expectNotFound(await call(t, account, method, path, method === 'POST' ? { url: site.url('/') } : undefined));
    });
  });

  describe('405 with an Allow header for a known path and another method', () => {
    it.each([
      ['PATCH', '/api/v1/reports', ['GET', 'POST']],
      ['PUT', '/api/v1/reports', ['GET', 'POST']],
      ['DELETE', '/api/v1/reports', ['GET', 'POST']],
      ['POST', '/api/v1/reports/1', ['GET', 'PUT', 'DELETE']],
      ['PATCH', '/api/v1/reports/1', ['GET', 'PUT', 'DELETE']],
      ['POST', '/api/v1/projects', ['GET']],
      ['DELETE', '/api/v1/projects', ['GET']],
      ['GET', '/api/v1/projects/127.0.0.1%3A9', ['DELETE']],
      ['PUT', '/api/v1/projects/127.0.0.1%3A9', ['DELETE']],
      ['POST', '/api/v1/account', ['GET']],
      ['DELETE', '/api/v1/account', ['GET']],
    ] as const)('%s %s: Allow lists %j', async (method, path, allowedMethods) => {
      const response = await call(t, account, method, path, method === 'POST' || method === 'PUT' || method === 'PATCH' ? { privacy: 1 } : undefined);
      expect(response.statusCode, response.body).toBe(405);
      expectJson(response);
      const parsed = body(response);
      expect(parsed.status).toBe(405);
      expect(typeof parsed.message).toBe('string');
      const allow = allowed(response);
      for (const expected of allowedMethods) expect(allow).toContain(expected);
      expect(allow).not.toContain(method);
    });
  });

  describe('bodies', () => {
    const bigPadding = 'x'.repeat(65 * 1024);

    it.each([
      ['a form', 'application/x-www-form-urlencoded', (url: string) => formBody({ url, padding: bigPadding })],
      ['JSON', 'application/json', (url: string) => JSON.stringify({ url, padding: bigPadding })],
    ])('%s body over 64 KiB: 413 {message, status: 413}, nothing stored', async (_name, contentType, payload) => {
      const owner = await t.createAccount('big');
      const response = await t.app.inject({
        method: 'POST',
        url: '/api/v1/reports',
        headers: { ...owner.auth, 'content-type': contentType },
        payload: payload(site.url('/')),
      });
      expect(response.statusCode).toBe(413);
      expectJson(response);
      expect(body(response)).toMatchObject({ status: 413 });
      expect(typeof body(response).message).toBe('string');
      expect((await listReports(t, owner)).meta.total).toBe(0);
    });

    it('a PUT body over 64 KiB: 413', async () => {
      const owner = await t.createAccount('big-put');
      const report = await createReport(t, owner, site.url('/'));
      const response = await call(t, owner, 'PUT', `/api/v1/reports/${report.id}`, { privacy: 1, padding: bigPadding });
      expect(response.statusCode).toBe(413);
      expectJson(response);
      expect(body(response).status).toBe(413);
    });

    it('a body just under 64 KiB is accepted', async () => {
      const owner = await t.createAccount('almost-big');
      const response = await call(t, owner, 'POST', '/api/v1/reports', { url: site.url('/'), padding: 'x'.repeat(60 * 1024) });
      expect(response.statusCode, response.body).toBe(201);
    });

    it.each([
      ['text/plain', (url: string) => `url=${url}`],
      ['multipart/form-data; boundary=XyZ', (url: string) => `--XyZ\r\nContent-Disposition: form-data; name="url"\r\n\r\n${url}\r\n--XyZ--\r\n`],
      ['application/xml', (url: string) => `<report><url>${url}</url></report>`],
    ])('POST with %s: 415 {message, status: 415}, nothing stored', async (contentType, payload) => {
      const owner = await t.createAccount('media');
      const response = await t.app.inject({
        method: 'POST',
        url: '/api/v1/reports',
        headers: { ...owner.auth, 'content-type': contentType },
        payload: payload(site.url('/')),
      });
      expect(response.statusCode, response.body).toBe(415);
      expectJson(response);
      expect(body(response)).toMatchObject({ status: 415 });
      expect(typeof body(response).message).toBe('string');
      expect((await listReports(t, owner)).meta.total).toBe(0);
    });

    const URL_REQUIRED = { message: 'The given data was invalid.', errors: { url: ['The url field is required.'] }, status: 422 };
    it.each<[string, Record<string, string>]>([
      ['no body at all', {}],
      ['zero bytes as a form', { 'content-type': 'application/x-www-form-urlencoded' }],
      ['zero bytes as JSON', { 'content-type': 'application/json' }],
      ['zero bytes as JSON with a charset', { 'content-type': 'application/json; charset=utf-8' }],
    ])('POST with %s has no fields: 422 on url, nothing stored', async (_name, headers) => {
      const owner = await t.createAccount('empty');
      const response = await t.app.inject({ method: 'POST', url: '/api/v1/reports', headers: { ...owner.auth, ...headers }, payload: headers['content-type'] ? '' : undefined });
      expect(response.statusCode, response.body).toBe(422);
      expect(body(response)).toEqual(URL_REQUIRED);
      expect((await listReports(t, owner)).meta.total).toBe(0);
      // The same for every other create.
      for (const path of ['/api/v1/webhooks', '/api/v1/crawls']) {
        const other = await t.app.inject({ method: 'POST', url: path, headers: { ...owner.auth, ...headers }, payload: headers['content-type'] ? '' : undefined });
        expect(body(other).errors, path).toEqual({ url: ['The url field is required.'] });
      }
    });

    it.each<[string, Record<string, string>]>([
      ['no body at all', {}],
      ['zero bytes as JSON', { 'content-type': 'application/json' }],
    ])('PUT with %s changes nothing: 200 and the report as it was', async (_name, headers) => {
      const owner = await t.createAccount('empty-put');
      const report = await createReport(t, owner, site.url('/'), { privacy: 1 });
      const response = await t.app.inject({ method: 'PUT', url: `/api/v1/reports/${report.id}`, headers: { ...owner.auth, ...headers }, payload: headers['content-type'] ? '' : undefined });
      expect(response.statusCode, response.body).toBe(200);
      expect(body(response).data).toMatchObject({ id: report.id, privacy: 1, runs_count: 1 });
    });

    it.each([
      ['a JSON array', '[]', 'The body must be a form or JSON object.'],
      ['a JSON string', '"https://example.com/"', 'The body must be a form or JSON object.'],
      ['JSON null', 'null', 'The body must be a form or JSON object.'],
      ['white space', '  ', 'The body is not valid JSON'],
      ['broken JSON', '{"url": ', 'The body is not valid JSON'],
    ])('POST with %s as JSON: 422 on body', async (_name, payload, message) => {
      const owner = await t.createAccount('not-object');
      const response = await t.app.inject({ method: 'POST', url: '/api/v1/reports', headers: { ...owner.auth, 'content-type': 'application/json' }, payload });
      expect(response.statusCode, response.body).toBe(422);
      expect(Object.keys(body(response).errors)).toEqual(['body']);
      expect(body(response).errors.body[0]).toContain(message);
    });

    it('zero bytes of another type stay 415', async () => {
      const owner = await t.createAccount('empty-xml');
      const response = await t.app.inject({ method: 'POST', url: '/api/v1/reports', headers: { ...owner.auth, 'content-type': 'application/xml' }, payload: '' });
      expect(response.statusCode, response.body).toBe(415);
    });

    it.each(['text/plain', 'multipart/form-data; boundary=XyZ'])('PUT with %s: 415, report unchanged', async (contentType) => {
      const owner = await t.createAccount('media-put');
      const report = await createReport(t, owner, site.url('/'));
      const response = await t.app.inject({
        method: 'PUT',
        url: `/api/v1/reports/${report.id}`,
        headers: { ...owner.auth, 'content-type': contentType },
        payload: contentType.startsWith('multipart')
          ? '--XyZ\r\nContent-Disposition: form-data; name="privacy"\r\n\r\n1\r\n--XyZ--\r\n'
          : 'privacy=1',
      });
      expect(response.statusCode, response.body).toBe(415);
      expectJson(response);
      expect(body(await call(t, owner, 'GET', `/api/v1/reports/${report.id}`)).data.privacy).toBe(0);
    });
  });

  describe('always JSON, never a redirect, never HTML', () => {
    it.each([
      ['GET', '/api/v1/reports'],
      ['GET', '/api/v1/reports/987654'],
      ['GET', '/api/v1/reports?per_page=7'],
      ['GET', '/api/v1/nothing'],
      ['GET', '/api/v1/reports/'],
      ['GET', '/api/v1/projects/'],
    ] as const)('%s %s with Accept: text/html', async (method, path) => {
      const response = await call(t, account, method, path, undefined, { accept: 'text/html' });
      expect(response.statusCode >= 300 && response.statusCode < 400, `status ${response.statusCode}`).toBe(false);
      expect(response.headers.location).toBeUndefined();
      expectJson(response);
      expect(() => JSON.parse(response.body)).not.toThrow();
    });

    it('a 401 asked for HTML is JSON too', async () => {
      const response = await t.app.inject({ method: 'GET', url: '/api/v1/reports', headers: { accept: 'text/html' } });
      expectUnauthenticated(response);
    });
  });

  describe('rate-limit headers on every authenticated response', () => {
    it.each([
      ['200', 'GET', '/api/v1/account'],
      ['404', 'GET', '/api/v1/reports/987654'],
      ['422', 'GET', '/api/v1/reports?per_page=20'],
      ['405', 'PATCH', '/api/v1/reports'],
      ['201', 'POST', '/api/v1/reports'],
    ] as const)('%s: %s %s', async (_status, method, path) => {
      const owner = await t.createAccount('headers');
      const response = await call(t, owner, method, path, method === 'GET' ? undefined : { url: site.url('/') });
      expect(response.headers['x-ratelimit-limit']).toBe(String(t.config.rateLimitPerMinute));
      expect(Number(response.headers['x-ratelimit-remaining'])).toBe(t.config.rateLimitPerMinute - 1);
    });
  });
});

describe.each(testDialects())('rate limit [%s]', (dialect) => {
  const LIMIT = 3;
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp(dialect, { rateLimitPerMinute: LIMIT });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('counts down per key, then answers 429 with Retry-After; other keys keep their own budget', async () => {
    const owner = await t.createAccount('limited');
    for (let used = 1; used <= LIMIT; used += 1) {
      const response = await call(t, owner, 'GET', '/api/v1/account');
      expect(response.statusCode).toBe(200);
      expect(response.headers['x-ratelimit-limit']).toBe(String(LIMIT));
      expect(response.headers['x-ratelimit-remaining']).toBe(String(LIMIT - used));
    }
    const limited = await call(t, owner, 'GET', '/api/v1/reports');
    expect(limited.statusCode).toBe(429);
    expectJson(limited);
    expect(body(limited)).toMatchObject({ status: 429 });
    expect(typeof body(limited).message).toBe('string');
    const retryAfter = Number(limited.headers['retry-after']);
    expect(Number.isInteger(retryAfter) && retryAfter > 0 && retryAfter <= 60).toBe(true);
    expect(limited.headers['x-ratelimit-limit']).toBe(String(LIMIT));
    expect(limited.headers['x-ratelimit-remaining']).toBe('0');

    const stranger = await t.createAccount('stranger');
    const fresh = await call(t, stranger, 'GET', '/api/v1/account');
    expect(fresh.statusCode).toBe(200);
    expect(fresh.headers['x-ratelimit-remaining']).toBe(String(LIMIT - 1));

    const spare = await t.app.services.keys.create({ userId: owner.id, boundTo: null }, { name: 'spare' });
    const spareResponse = await t.app.inject({
      method: 'GET',
      url: '/api/v1/account',
      headers: { authorization: `Bearer ${spare.api_key}` },
    });
    expect(spareResponse.statusCode).toBe(200);
    expect(spareResponse.headers['x-ratelimit-remaining']).toBe(String(LIMIT - 1));
  });

  it('a key over the limit cannot create reports', async () => {
    const owner = await t.createAccount('limited-create');
    for (let used = 0; used < LIMIT; used += 1) await call(t, owner, 'GET', '/api/v1/account');
    const response = await call(t, owner, 'POST', '/api/v1/reports', { url: 'http://127.0.0.1:9/' });
    expect(response.statusCode).toBe(429);
    expect(response.headers['retry-after']).toBeDefined();
  });
});
