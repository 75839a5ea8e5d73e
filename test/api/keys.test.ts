// /api/v1/keys and what a key may do (docs/organisations.md, "API keys"): created with a scope and an
// organisation, the secret once and only its hash stored, listed and revoked by prefix; a read key's
// writes refused before anything is looked up; a bound key kept to its organisation.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDb } from '../../src/db/database.ts';
import { hashApiKey } from '../../src/security/hashing.ts';
import { startTestApp, type TestApp } from '../support/api-app.ts';
import { testDialects } from '../support/databases.ts';
import { ISO_TIME, UNAUTHENTICATED, body, call, expectInvalid, expectNotFound, type Account, type Body } from '../support/api-fixtures.ts';

const READ_ONLY = { message: 'This API key can only read (scope read).', status: 403 };

describe.each(testDialects())('/api/v1/keys [%s]', (dialect) => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp(dialect);
  });
  afterAll(async () => {
    await t?.close();
  });

  /** The key as an Account the fixtures can call with. */
  function as(account: Account, secret: string): Account {
    return { ...account, key: secret, auth: { authorization: `Bearer ${secret}` } };
  }

  async function createKey(account: Account, fields: Record<string, string>): Promise<Body> {
    const response = await call(t, account, 'POST', '/api/v1/keys', fields);
    expect(response.statusCode, response.body).toBe(201);
    return body(response).data;
  }

  it('creates a key: 201 with the secret once, stored only as its SHA-256; lists active keys oldest first without secrets', async () => {
    const ana = await t.createAccount('ana');
    const key = await createKey(ana, { name: 'CI for Fernhill', scope: 'read' });
    expect(key).toEqual({
      prefix: key.api_key.slice(0, 12), name: 'CI for Fernhill', scope: 'read', organization: null,
      created_at: expect.stringMatching(ISO_TIME), last_used_at: null, api_key: expect.stringMatching(/^pg_[A-Za-z0-9_-]{22,}$/),
    });
    const handle = createDb(t.config.databaseUrl);
    try {
      const row = await handle.db.selectFrom('api_keys').select(['key_hash', 'key_prefix']).where('key_prefix', '=', key.prefix).executeTakeFirstOrThrow();
      expect(row.key_hash).toBe(hashApiKey(key.api_key));
      const everything = JSON.stringify(await handle.db.selectFrom('api_keys').selectAll().execute());
      expect(everything).not.toContain(key.api_key);
    } finally {
      await handle.destroy();
    }
    const list = await call(t, ana, 'GET', '/api/v1/keys');
    expect(body(list).data.map((k: Body) => [k.prefix, k.name, k.scope])).toEqual([
      [ana.key.slice(0, 12), 'first key', 'write'],
      [key.prefix, 'CI for Fernhill', 'read'],
    ]);
    expect(list.body).not.toContain(key.api_key);
    expect(list.body).not.toContain(ana.key);
    expect(body(await call(t, as(ana, key.api_key), 'GET', '/api/v1/account')).data.key).toEqual({ prefix: key.prefix, name: 'CI for Fernhill', scope: 'read', organization: null });
  });

  it('a scope outside read and write, or an organisation the caller is not in, is a 422 on the field', async () => {
    const ana = await t.createAccount('ana');
    const eve = await t.createAccount('eve');
    expect(expectInvalid(await call(t, ana, 'POST', '/api/v1/keys', { scope: 'admin' }), 'scope')).toEqual(['The scope must be one of read, write.']);
    const notMine = expectInvalid(await call(t, ana, 'POST', '/api/v1/keys', { organization: String(eve.organization) }), 'organization');
    const unknown = expectInvalid(await call(t, ana, 'POST', '/api/v1/keys', { organization: '999999' }), 'organization');
    expect(notMine).toEqual(unknown);
    expectInvalid(await call(t, ana, 'POST', '/api/v1/keys', { name: 'x'.repeat(101) }), 'name');
  });

  it('revokes by prefix: 200, then the key is a 401 and not listed; another account\'s key is a 404', async () => {
    const ana = await t.createAccount('ana');
    const eve = await t.createAccount('eve');
    const key = await createKey(ana, {});
    expectNotFound(await call(t, eve, 'DELETE', `/api/v1/keys/${key.prefix}`));
    const revoked = await call(t, ana, 'DELETE', `/api/v1/keys/${key.prefix}`);
    expect(body(revoked)).toEqual({ prefix: key.prefix, object: 'key', deleted: true, status: 200 });
    const refused = await call(t, as(ana, key.api_key), 'GET', '/api/v1/reports');
    expect(refused.statusCode).toBe(401);
    expect(body(refused)).toEqual(UNAUTHENTICATED);
    expect(body(await call(t, ana, 'GET', '/api/v1/keys')).data.map((k: Body) => k.prefix)).not.toContain(key.prefix);
    expectNotFound(await call(t, ana, 'DELETE', `/api/v1/keys/${key.prefix}`));
  });

  it('a read key reads, and any other method is refused before anything is looked up, before the role', async () => {
    const ana = await t.createAccount('ana');
    const reader = as(ana, (await createKey(ana, { scope: 'read' })).api_key);
    expect((await call(t, reader, 'GET', '/api/v1/reports')).statusCode).toBe(200);
    for (const [method, path] of [['POST', '/api/v1/reports'], ['DELETE', '/api/v1/reports/999999'], ['PUT', '/api/v1/reports/999999'], ['POST', '/api/v1/keys'], ['POST', '/api/v1/organizations'], ['DELETE', '/api/v1/projects/x.test']] as const) {
      const response = await call(t, reader, method, path, method === 'DELETE' ? undefined : { url: 'https://example.com/' });
      expect(response.statusCode, `${method} ${path}`).toBe(403);
      expect(body(response)).toEqual(READ_ONLY);
    }
  });

  it('a bound key acts only in its organisation: another named is a 404; it manages only keys bound there and makes no organisation', async () => {
    const ana = await t.createAccount('ana');
    const fernhill = body(await call(t, ana, 'POST', '/api/v1/organizations', { name: 'Fernhill' })).data;
    const bound = await createKey(ana, { organization: String(fernhill.id), name: 'CI' });
    expect(bound.organization).toBe(fernhill.id);
    const ci = as(ana, bound.api_key);

    const report = await call(t, ci, 'POST', '/api/v1/reports', { url: 'not a url' });
    expect(report.statusCode).toBe(422);
    expect(body(await call(t, ci, 'GET', '/api/v1/reports?per_page=10')).meta.total).toBe(0);
    expectNotFound(await call(t, ci, 'GET', '/api/v1/reports', undefined, { 'pagegrade-organization': String(ana.organization) }));
    expectNotFound(await call(t, ci, 'GET', `/api/v1/reports?organization=${ana.organization}`));
    expect((await call(t, ci, 'GET', '/api/v1/reports', undefined, { 'pagegrade-organization': String(fernhill.id) })).statusCode).toBe(200);

    expect(body(await call(t, ci, 'GET', '/api/v1/organizations')).data.map((o: Body) => o.id)).toEqual([fernhill.id]);
    expectNotFound(await call(t, ci, 'GET', `/api/v1/organizations/${ana.organization}`));
    const made = await call(t, ci, 'POST', '/api/v1/organizations', { name: 'Another' });
    expect(made.statusCode).toBe(403);
    expect(body(made)).toEqual({ message: `This API key works only in organisation ${fernhill.id}.`, status: 403 });

    expect(body(await call(t, ci, 'GET', '/api/v1/keys')).data.map((k: Body) => k.prefix)).toEqual([bound.prefix]);
    const second = await createKey(ci, { name: 'second' });
    expect(second.organization).toBe(fernhill.id);
    expectInvalid(await call(t, ci, 'POST', '/api/v1/keys', { organization: String(ana.organization) }), 'organization');
    expectNotFound(await call(t, ci, 'DELETE', `/api/v1/keys/${ana.key.slice(0, 12)}`));
  });

  it('removing a member revokes the keys it had bound to the organisation', async () => {
    const ana = await t.createAccount('ana');
    const vera = await t.createAccount('vera');
    const fernhill = body(await call(t, ana, 'POST', '/api/v1/organizations', { name: 'Fernhill' })).data;
    await call(t, ana, 'POST', `/api/v1/organizations/${fernhill.id}/members`, { email: vera.email, role: 'editor' });
    const veras = as(vera, (await createKey(vera, { organization: String(fernhill.id) })).api_key);
    expect((await call(t, veras, 'GET', '/api/v1/reports')).statusCode).toBe(200);
    await call(t, ana, 'DELETE', `/api/v1/organizations/${fernhill.id}/members/${vera.id}`);
    expect((await call(t, veras, 'GET', '/api/v1/reports')).statusCode).toBe(401);
    expect((await call(t, vera, 'GET', '/api/v1/reports')).statusCode).toBe(200);
  });

  it('deleting an organisation revokes the keys bound to it', async () => {
    const ana = await t.createAccount('ana');
    const fernhill = body(await call(t, ana, 'POST', '/api/v1/organizations', { name: 'Fernhill' })).data;
    const ci = as(ana, (await createKey(ana, { organization: String(fernhill.id) })).api_key);
    expect((await call(t, ana, 'DELETE', `/api/v1/organizations/${fernhill.id}`)).statusCode).toBe(200);
    expect((await call(t, ci, 'GET', '/api/v1/account')).statusCode).toBe(401);
  });
});
