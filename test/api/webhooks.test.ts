// /api/v1/webhooks: register, list, delete and deliveries as docs/api.md says, the secret shown
// once and stored only encrypted, validation as 422s on the field, and other accounts' webhooks 404.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDb } from '../../src/db/database.ts';
import { startTestApp, type TestApp } from '../support/api-app.ts';
import { testDialects } from '../support/databases.ts';
import { startReceiver } from '../support/webhook-receiver.ts';
import { ISO_TIME, body, call, expectInvalid, expectJson, expectNotFound, type Account, type Body } from '../support/api-fixtures.ts';

const ALL_EVENTS = ['report.completed', 'report.failed', 'report.regressed', 'crawl.completed', 'crawl.regressed'];

describe.each(testDialects())('/api/v1/webhooks [%s]', (dialect) => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp(dialect);
  });
  afterAll(async () => {
    await t?.close();
  });

  async function register(account: Account, fields: Record<string, string>): Promise<Body> {
    const response = await call(t, account, 'POST', '/api/v1/webhooks', fields);
    expect(response.statusCode, response.body).toBe(201);
    return body(response).data;
  }

  it('registers a webhook from a form: 201 with Location, the events, and a whsec_ secret of 32 bytes', async () => {
    const account = await t.createAccount();
    const response = await call(t, account, 'POST', '/api/v1/webhooks', {
      url: 'HTTPS://Hooks.Example.com/pagegrade#x',
      events: 'report.failed, report.completed',
    });
    expect(response.statusCode, response.body).toBe(201);
    expectJson(response);
    const created = body(response);
    expect(created.status).toBe(201);
    expect(response.headers.location).toBe(`/api/v1/webhooks/${created.data.id}`);
    expect(created.data).toEqual({
      id: expect.any(Number),
      url: 'https://hooks.example.com/pagegrade',
      organization: account.organization,
      events: ['report.completed', 'report.failed'],
      secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{43}=$/),
      created_at: expect.stringMatching(ISO_TIME),
    });
    expect(Buffer.from(created.data.secret.slice('whsec_'.length), 'base64')).toHaveLength(32);
  });

  it('takes a JSON body with an array of events; no events means all of them', async () => {
    const account = await t.createAccount();
    const json = await t.app.inject({
      method: 'POST',
      url: '/api/v1/webhooks',
      headers: { ...account.auth, 'content-type': 'application/json' },
      payload: { url: 'https://example.com/a', events: ['report.regressed', 'crawl.completed'] },
    });
    expect(json.statusCode, json.body).toBe(201);
    expect(body(json).data.events).toEqual(['report.regressed', 'crawl.completed']);
    expect((await register(account, { url: 'https://example.com/b' })).events).toEqual(ALL_EVENTS);
  });

  it('lists webhooks in the list envelope without secrets, and keeps the secret only encrypted', async () => {
    const account = await t.createAccount();
    const first = await register(account, { url: 'https://example.com/one' });
    const second = await register(account, { url: 'https://example.com/two', events: 'report.completed' });
    const response = await call(t, account, 'GET', '/api/v1/webhooks');
    expect(response.statusCode).toBe(200);
    const list = body(response);
    expect(list.data).toEqual([
      { id: first.id, url: first.url, organization: account.organization, events: ALL_EVENTS, created_at: first.created_at },
      { id: second.id, url: second.url, organization: account.organization, events: ['report.completed'], created_at: second.created_at },
    ]);
    expect(list.meta).toMatchObject({ current_page: 1, from: 1, to: 2, total: 2, per_page: 100 });
    expect(list.links.next).toBeNull();
    expect(response.body).not.toContain('whsec_');
    expect(response.body).not.toContain(first.secret.slice(6));

    const handle = createDb(t.config.databaseUrl);
    try {
      const row = await handle.db.selectFrom('webhooks').selectAll().where('id', '=', first.id).executeTakeFirstOrThrow();
      expect(row.secret_encrypted).toMatch(/^v1\./);
      const secretBytes = first.secret.slice('whsec_'.length);
      expect(JSON.stringify(row)).not.toContain(secretBytes);
      expect(JSON.stringify(row)).not.toContain(Buffer.from(secretBytes, 'base64').toString('hex'));
    } finally {
      await handle.destroy();
    }
  });

  it('deletes a webhook: {id, object, deleted, status}; then it is a 404 and gone from the list', async () => {
    const account = await t.createAccount();
    const webhook = await register(account, { url: 'https://example.com/gone' });
    const response = await call(t, account, 'DELETE', `/api/v1/webhooks/${webhook.id}`);
    expect(response.statusCode, response.body).toBe(200);
    expect(body(response)).toEqual({ id: webhook.id, object: 'webhook', deleted: true, status: 200 });
    expectNotFound(await call(t, account, 'DELETE', `/api/v1/webhooks/${webhook.id}`));
    expectNotFound(await call(t, account, 'GET', `/api/v1/webhooks/${webhook.id}/deliveries`));
    expect(body(await call(t, account, 'GET', '/api/v1/webhooks')).data).toEqual([]);
  });

  it('lists a webhook\'s deliveries newest first, in the list envelope', async () => {
    const account = await t.createAccount();
    // Deliveries are sent (the app runs its jobs): to a receiver of the test's own, never the internet.
    const receiver = await startReceiver([200]);
    const webhook = await register(account, { url: receiver.url(), events: 'report.completed,report.failed' });
    const empty = body(await call(t, account, 'GET', `/api/v1/webhooks/${webhook.id}/deliveries`));
    expect(empty.data).toEqual([]);
    expect(empty.meta.total).toBe(0);

    const [older] = await t.app.services.webhooks.notify(account.organization, 'report.completed', { id: 1 });
    const [newer] = await t.app.services.webhooks.notify(account.organization, 'report.failed', { id: 2 });
    expect(await t.app.services.webhooks.notify(account.organization, 'crawl.completed', { id: 3 })).toEqual([]);
    const response = await call(t, account, 'GET', `/api/v1/webhooks/${webhook.id}/deliveries`);
    expect(response.statusCode, response.body).toBe(200);
    const list = body(response);
    expect(list.data.map((delivery: Body) => [delivery.id, delivery.event])).toEqual([
      [newer, 'report.failed'],
      [older, 'report.completed'],
    ]);
    for (const delivery of list.data) {
      expect(Object.keys(delivery).sort()).toEqual(['attempts', 'created_at', 'delivered_at', 'event', 'id', 'response_status', 'status']);
      expect(delivery.id).toMatch(/^msg_[A-Za-z0-9_-]+$/);
      expect(delivery.created_at).toMatch(ISO_TIME);
      expect(['pending', 'delivered']).toContain(delivery.status);
    }
    expect(list.meta.total).toBe(2);
    await receiver.close();
  });

  it('answers 404 for another account\'s webhook, and does not list it', async () => {
    const owner = await t.createAccount();
    const other = await t.createAccount();
    const webhook = await register(owner, { url: 'https://example.com/private' });
    expectNotFound(await call(t, other, 'DELETE', `/api/v1/webhooks/${webhook.id}`));
    expectNotFound(await call(t, other, 'GET', `/api/v1/webhooks/${webhook.id}/deliveries`));
    expect(body(await call(t, other, 'GET', '/api/v1/webhooks')).data).toEqual([]);
    expect(await t.app.services.webhooks.notify(other.organization, 'report.completed', {})).toEqual([]);
    expect(body(await call(t, owner, 'GET', '/api/v1/webhooks')).data).toHaveLength(1);
  });

  it('refuses a missing, relative, non-http or credentialed url with a 422 on url', async () => {
    const account = await t.createAccount();
    expect(expectInvalid(await call(t, account, 'POST', '/api/v1/webhooks', { events: 'report.completed' }), 'url')).toEqual([
      'The url field is required.',
    ]);
    for (const url of ['', '/hook', 'ftp://example.com/hook', 'https://user:pw@example.com/hook', `https://example.com/${'a'.repeat(2100)}`]) {
      expectInvalid(await call(t, account, 'POST', '/api/v1/webhooks', { url }), 'url');
    }
    expect(body(await call(t, account, 'GET', '/api/v1/webhooks')).data).toEqual([]);
  });

  it('refuses unknown events with a 422 on events naming the allowed ones', async () => {
    const account = await t.createAccount();
    const messages = expectInvalid(
      await call(t, account, 'POST', '/api/v1/webhooks', { url: 'https://example.com/x', events: 'report.completed,report.deleted' }),
      'events',
    );
    expect(messages).toEqual([`The events must be one or more of: ${ALL_EVENTS.join(', ')}; unknown: report.deleted.`]);
  });

  it('caps the webhooks of one account with a 422 that says what to do', async () => {
    const account = await t.createAccount();
    for (let i = 0; i < 20; i += 1) await register(account, { url: `https://example.com/${i}` });
    const [message] = expectInvalid(await call(t, account, 'POST', '/api/v1/webhooks', { url: 'https://example.com/21' }), 'url');
    expect(message).toContain('at most 20 webhooks');
    expect(body(await call(t, account, 'GET', '/api/v1/webhooks?per_page=10&page=2')).meta).toMatchObject({ total: 20, from: 11, to: 20 });
  });

  it('answers ids that are not positive integers with 404, other methods with 405, and no key with 401', async () => {
    const account = await t.createAccount();
    for (const id of ['0', 'abc', '-1', '1.5']) expectNotFound(await call(t, account, 'DELETE', `/api/v1/webhooks/${id}`));
    const put = await call(t, account, 'PUT', '/api/v1/webhooks');
    expect(put.statusCode).toBe(405);
    expect(put.headers.allow).toBe('GET, POST, HEAD');
    const get = await call(t, account, 'GET', '/api/v1/webhooks/1');
    expect(get.statusCode).toBe(405);
    expect(get.headers.allow).toBe('DELETE');
    expect((await call(t, null, 'GET', '/api/v1/webhooks')).statusCode).toBe(401);
  });
});

describe('/api/v1/webhooks with the private-address guard on', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp('sqlite', { allowPrivateUrls: false, publicAddressesForTests: ['127.0.0.2'] });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('refuses a url whose host is a private or loopback address, or this machine, with a 422 on url', async () => {
    const account = await t.createAccount();
    for (const url of ['http://127.0.0.1:9/hook', 'http://10.1.2.3/hook', 'http://[::1]/hook', 'http://localhost:8080/hook', 'http://192.168.0.1/']) {
      const [message] = expectInvalid(await call(t, account, 'POST', '/api/v1/webhooks', { url }), 'url');
      expect(message, url).toMatch(/^The url cannot receive webhooks: .*PAGEGRADE_ALLOW_PRIVATE_URLS=1/);
    }
    expect(body(await call(t, account, 'GET', '/api/v1/webhooks')).meta.total).toBe(0);
  });

  it('accepts an address the guard treats as public', async () => {
    const account = await t.createAccount();
    const response = await call(t, account, 'POST', '/api/v1/webhooks', { url: 'http://127.0.0.2:8080/hook' });
    expect(response.statusCode, response.body).toBe(201);
  });
});
