// /api/v1/reports/{id}/shares and /api/v1/crawls/{id}/shares (docs/organisations.md, "Share links"):
// create (the token shown once, stored only as a hash, the URL on the request's origin), list the
// active ones, revoke by token or prefix; expiry by the service's clock and by the stored instant;
// roles (a viewer reads, never shares) and another organisation's report or crawl as a 404.
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDb, type DbHandle } from '../../src/db/database.ts';
import { createShareLinkService } from '../../src/services/share-link.service.ts';
import { startTestApp, type TestApp } from '../support/api-app.ts';
import { testDialects } from '../support/databases.ts';
import { goodPage, html, startSite, type Site } from '../support/site-server.ts';
import { startCrawl } from '../support/crawl-fixtures.ts';
import { ISO_TIME, body, call, createReport, expectInvalid, expectJson, expectNotFound, type Account, type Body } from '../support/api-fixtures.ts';

const DAY_MS = 24 * 60 * 60 * 1000;
const TOKEN = /^[A-Za-z0-9_-]{22,}$/;
const RANGE_SENTENCE = 'The expires_in_days must be an integer from 1 to 365.';

describe.each(testDialects())('share links API [%s]', (dialect) => {
  let t: TestApp;
  let site: Site;
  let handle: DbHandle;

  beforeAll(async () => {
    t = await startTestApp(dialect);
    site = await startSite({ '/': html(goodPage()), '/other': html(goodPage('Another page about mountain coffee')) });
    handle = createDb(t.config.databaseUrl);
  });
  afterAll(async () => {
    await handle?.destroy();
    await site?.close();
    await t?.close();
  });

  async function share(account: Account, path: string, fields: Record<string, string | number> = {}): Promise<Body> {
    const response = await call(t, account, 'POST', path, fields);
    expect(response.statusCode, response.body).toBe(201);
    return body(response).data;
  }

  async function listed(account: Account, path: string): Promise<Body> {
    const response = await call(t, account, 'GET', path);
    expect(response.statusCode, response.body).toBe(200);
    return body(response);
  }

  async function organizationWith(owner: Account, member: Account, role: string): Promise<number> {
    const created = await call(t, owner, 'POST', '/api/v1/organizations', { name: 'Fernhill Partners' });
    expect(created.statusCode, created.body).toBe(201);
    const id = body(created).data.id;
    const added = await call(t, owner, 'POST', `/api/v1/organizations/${id}/members`, { email: member.email, role });
    expect(added.statusCode, added.body).toBe(201);
    return id;
  }

  it('creates a link: 201, Location its url on the request\'s origin, a token of 128 bits or more shown once', async () => {
    const ana = await t.createAccount('ana');
    const report = await createReport(t, ana, site.url('/'));
    const response = await call(t, ana, 'POST', `/api/v1/reports/${report.id}/shares`, {}, { host: 'pagegrade.test:3000' });
    expect(response.statusCode, response.body).toBe(201);
    expectJson(response);
    const created = body(response);
    expect(created.status).toBe(201);
    const { token } = created.data;
    expect(token).toMatch(TOKEN);
    // base64url of at least 16 bytes
    expect(Buffer.from(token, 'base64url').length).toBeGreaterThanOrEqual(16);
    expect(created.data).toEqual({
      token,
      prefix: token.slice(0, 8),
      url: `http://pagegrade.test:3000/s/${token}`,
      expires_at: expect.stringMatching(ISO_TIME),
      created_at: expect.stringMatching(ISO_TIME),
      created_by: { email: ana.email },
    });
    expect(response.headers.location).toBe(created.data.url);
    // The default: 30 days.
    expect(Date.parse(created.data.expires_at) - Date.parse(created.data.created_at)).toBe(30 * DAY_MS);
    // Another link is another token.
    const second = await share(ana, `/api/v1/reports/${report.id}/shares`);
    expect(second.token).not.toBe(token);
  });

  it('stores only the token\'s SHA-256 and its prefix', async () => {
    const ana = await t.createAccount('ana');
    const report = await createReport(t, ana, site.url('/'));
    const { token } = await share(ana, `/api/v1/reports/${report.id}/shares`);
    const row = await handle.db.selectFrom('share_links').selectAll().where('prefix', '=', token.slice(0, 8)).executeTakeFirstOrThrow();
    expect(row.token_hash).toBe(createHash('sha256').update(token).digest('hex'));
    expect(row).toMatchObject({ organization_id: ana.organization, report_id: report.id, crawl_id: null, created_by: ana.id, created_by_email: ana.email, revoked_at: null });
    expect(JSON.stringify(row)).not.toContain(token);
    expect(JSON.stringify(row)).not.toContain(token.slice(8));
  });

  it('takes expires_in_days from 1 to 365, from a form or JSON; anything else is a 422 naming the range', async () => {
    const ana = await t.createAccount('ana');
    const report = await createReport(t, ana, site.url('/'));
    const path = `/api/v1/reports/${report.id}/shares`;
    const week = await share(ana, path, { expires_in_days: 7 });
    expect(Date.parse(week.expires_at) - Date.parse(week.created_at)).toBe(7 * DAY_MS);
    const json = await t.app.inject({ method: 'POST', url: path, headers: { ...ana.auth, 'content-type': 'application/json' }, payload: { expires_in_days: 365 } });
    expect(json.statusCode, json.body).toBe(201);
    expect(Date.parse(body(json).data.expires_at) - Date.parse(body(json).data.created_at)).toBe(365 * DAY_MS);
    expect((await share(ana, path, { expires_in_days: 1 })).prefix).toHaveLength(8);

    for (const value of ['0', '366', '-1', 'abc', '1.5', '30 days', '1e2']) {
      expect(expectInvalid(await call(t, ana, 'POST', path, { expires_in_days: value }), 'expires_in_days'), value).toEqual([RANGE_SENTENCE]);
    }
    for (const value of [0, 366, 2.5, true, 'x']) {
      const refused = await t.app.inject({ method: 'POST', url: path, headers: { ...ana.auth, 'content-type': 'application/json' }, payload: { expires_in_days: value } });
      expect(expectInvalid(refused, 'expires_in_days'), String(value)).toEqual([RANGE_SENTENCE]);
    }
    // Nothing was made by the refusals: the three links above are all there is.
    expect((await listed(ana, path)).meta.total).toBe(3);
  });

  it('lists the active links newest first, without token or url, in the list envelope', async () => {
    const ana = await t.createAccount('ana');
    const report = await createReport(t, ana, site.url('/'));
    const path = `/api/v1/reports/${report.id}/shares`;
    const first = await share(ana, path);
    const second = await share(ana, path, { expires_in_days: 3 });
    const list = await listed(ana, path);
    expect(list.data).toEqual([
      { prefix: second.prefix, expires_at: second.expires_at, created_at: second.created_at, created_by: { email: ana.email } },
      { prefix: first.prefix, expires_at: first.expires_at, created_at: first.created_at, created_by: { email: ana.email } },
    ]);
    expect(list.meta).toMatchObject({ current_page: 1, from: 1, to: 2, total: 2, per_page: 100 });
    expect(JSON.stringify(list)).not.toContain(first.token);
    const paged = await listed(ana, `${path}?per_page=10&page=2`);
    expect(paged.data).toEqual([]);
    expect(paged.meta.total).toBe(2);
    // Another report's list is its own.
    const other = await createReport(t, ana, site.url('/other'));
    expect((await listed(ana, `/api/v1/reports/${other.id}/shares`)).data).toEqual([]);
  });

  it('revokes by prefix or by the whole token: then it is neither listed nor revocable again; unknown is a 404', async () => {
    const ana = await t.createAccount('ana');
    const report = await createReport(t, ana, site.url('/'));
    const path = `/api/v1/reports/${report.id}/shares`;
    const byPrefix = await share(ana, path);
    const byToken = await share(ana, path);
    const kept = await share(ana, path);

    const revoked = await call(t, ana, 'DELETE', `${path}/${byPrefix.prefix}`);
    expect(revoked.statusCode, revoked.body).toBe(200);
    expect(body(revoked)).toEqual({ prefix: byPrefix.prefix, object: 'share', deleted: true, status: 200 });
    const revokedToken = await call(t, ana, 'DELETE', `${path}/${byToken.token}`);
    expect(body(revokedToken)).toEqual({ prefix: byToken.prefix, object: 'share', deleted: true, status: 200 });

    expect((await listed(ana, path)).data.map((link: Body) => link.prefix)).toEqual([kept.prefix]);
    expectNotFound(await call(t, ana, 'DELETE', `${path}/${byPrefix.prefix}`));
    expectNotFound(await call(t, ana, 'DELETE', `${path}/${byToken.token}`));
    // Not a link's token or prefix: a longer prefix, a changed token, nonsense.
    expectNotFound(await call(t, ana, 'DELETE', `${path}/${kept.token.slice(0, 9)}`));
    // (its last character changed: to A, or to B when it was A)
    const changed = `${kept.token.slice(0, -1)}${kept.token.endsWith('A') ? 'B' : 'A'}`;
    expectNotFound(await call(t, ana, 'DELETE', `${path}/${changed}`));
    expectNotFound(await call(t, ana, 'DELETE', `${path}/zzzzzzzz`));
    expectNotFound(await call(t, ana, 'DELETE', `${path}/${'a'.repeat(1000)}`));
    // A link is revoked only under its own report.
    const other = await createReport(t, ana, site.url('/other'));
    expectNotFound(await call(t, ana, 'DELETE', `/api/v1/reports/${other.id}/shares/${kept.prefix}`));
    expect((await listed(ana, path)).data).toHaveLength(1);
    const row = await handle.db.selectFrom('share_links').select('revoked_at').where('prefix', '=', byPrefix.prefix).executeTakeFirstOrThrow();
    expect(row.revoked_at).toMatch(ISO_TIME);
  });

  it('leaves a link out of the list once its expires_at has passed, and no longer revokes it', async () => {
    const ana = await t.createAccount('ana');
    const report = await createReport(t, ana, site.url('/'));
    const path = `/api/v1/reports/${report.id}/shares`;
    const expired = await share(ana, path);
    const active = await share(ana, path);
    await handle.db.updateTable('share_links').set({ expires_at: new Date(Date.now() - 1000).toISOString() }).where('prefix', '=', expired.prefix).execute();
    expect((await listed(ana, path)).data.map((link: Body) => link.prefix)).toEqual([active.prefix]);
    expectNotFound(await call(t, ana, 'DELETE', `${path}/${expired.prefix}`));
  });

  it('expires on the service\'s clock: active until expires_at, then unknown to resolve, the list and revoke', async () => {
    const ana = await t.createAccount('ana');
    const report = await createReport(t, ana, site.url('/'));
    let now = new Date('2030-01-01T00:00:00.000Z');
    const service = createShareLinkService(handle.db, { now: () => now });
    const target = { kind: 'report', id: report.id } as const;
    const link = await service.create(ana.organization, target, { userId: ana.id, email: ana.email }, { expires_in_days: '2' });
    expect(link.created_at).toBe('2030-01-01T00:00:00.000Z');
    expect(link.expires_at).toBe('2030-01-03T00:00:00.000Z');

    now = new Date('2030-01-02T23:59:59.999Z');
    const resolved = await service.resolve(link.token);
    expect(resolved).toMatchObject({ kind: 'report', organizationId: ana.organization, report: { id: report.id, url: report.url } });
    expect((await service.list(ana.organization, target, { page: 1, perPage: 10 })).items.map((item) => item.prefix)).toEqual([link.prefix]);

    now = new Date('2030-01-03T00:00:00.000Z');
    expect(await service.resolve(link.token)).toBeNull();
    expect((await service.list(ana.organization, target, { page: 1, perPage: 10 })).total).toBe(0);
    await expect(service.revoke(ana.organization, target, link.prefix)).rejects.toThrow('Resource not found.');
    // The real clock is long before 2030: for the API the link is still active.
    expect((await listed(ana, `/api/v1/reports/${report.id}/shares`)).data.map((item: Body) => item.prefix)).toEqual([link.prefix]);
  });

  it('resolves a token only while its report exists, and never a malformed one', async () => {
    const ana = await t.createAccount('ana');
    const report = await createReport(t, ana, site.url('/'));
    const { token } = await share(ana, `/api/v1/reports/${report.id}/shares`);
    expect(await t.app.services.shares.resolve(token)).toMatchObject({ kind: 'report', report: { id: report.id } });
    for (const bad of ['', 'short', `${token}!`, token.slice(0, 8)]) expect(await t.app.services.shares.resolve(bad), bad).toBeNull();
    expect((await call(t, ana, 'DELETE', `/api/v1/reports/${report.id}`)).statusCode).toBe(200);
    expect(await t.app.services.shares.resolve(token)).toBeNull();
    // Its links went with it.
    expect(await handle.db.selectFrom('share_links').select('id').where('report_id', '=', report.id).execute()).toEqual([]);
  });

  it('a viewer lists but does not share or revoke: 403 before anything is looked up; an editor does both', async () => {
    const ana = await t.createAccount('ana');
    const vera = await t.createAccount('vera');
    const eddie = await t.createAccount('eddie');
    const organization = await organizationWith(ana, vera, 'viewer');
    const added = await call(t, ana, 'POST', `/api/v1/organizations/${organization}/members`, { email: eddie.email, role: 'editor' });
    expect(added.statusCode, added.body).toBe(201);
    const inOrganization = { 'pagegrade-organization': String(organization) };
    const made = await call(t, ana, 'POST', '/api/v1/reports', { url: site.url('/') }, inOrganization);
    expect(made.statusCode, made.body).toBe(201);
    const path = `/api/v1/reports/${body(made).data.id}/shares`;

    for (const target of [path, '/api/v1/reports/999999/shares']) {
      const refused = await call(t, vera, 'POST', target, {}, inOrganization);
      expect(refused.statusCode, refused.body).toBe(403);
      expect(body(refused)).toEqual({ message: 'Your role in this organisation (viewer) cannot share reports.', status: 403 });
    }
    const crawlRefused = await call(t, vera, 'POST', '/api/v1/crawls/999999/shares', {}, inOrganization);
    expect(body(crawlRefused)).toEqual({ message: 'Your role in this organisation (viewer) cannot share crawls.', status: 403 });

    const link = body(await call(t, eddie, 'POST', path, {}, inOrganization)).data;
    expect(link.created_by).toEqual({ email: eddie.email });
    const list = body(await call(t, vera, 'GET', path, undefined, inOrganization));
    expect(list.data.map((item: Body) => item.prefix)).toEqual([link.prefix]);

    const revoke = await call(t, vera, 'DELETE', `${path}/${link.prefix}`, undefined, inOrganization);
    expect(revoke.statusCode).toBe(403);
    expect(body(revoke)).toEqual({ message: 'Your role in this organisation (viewer) cannot revoke share links.', status: 403 });
    expect((await call(t, eddie, 'DELETE', `${path}/${link.prefix}`, undefined, inOrganization)).statusCode).toBe(200);
    // In their personal organisation the report is not theirs: 404.
    expectNotFound(await call(t, eddie, 'GET', path));
  });

  it('another organisation\'s report or crawl is a 404 for every share route, and so is an id that is not one', async () => {
    const ana = await t.createAccount('ana');
    const eve = await t.createAccount('eve');
    const report = await createReport(t, ana, site.url('/'));
    const link = await share(ana, `/api/v1/reports/${report.id}/shares`);
    const crawl = await startCrawl(t, ana, { url: site.url('/'), max_pages: 1 });
    const crawlLink = await share(ana, `/api/v1/crawls/${crawl.id}/shares`);
    for (const path of [`/api/v1/reports/${report.id}/shares`, `/api/v1/crawls/${crawl.id}/shares`]) {
      expectNotFound(await call(t, eve, 'POST', path, {}));
      expectNotFound(await call(t, eve, 'GET', path));
    }
    expectNotFound(await call(t, eve, 'DELETE', `/api/v1/reports/${report.id}/shares/${link.prefix}`));
    expectNotFound(await call(t, eve, 'DELETE', `/api/v1/crawls/${crawl.id}/shares/${crawlLink.token}`));
    for (const id of ['abc', '0', '-1', '999999999']) {
      expectNotFound(await call(t, ana, 'POST', `/api/v1/reports/${id}/shares`, {}));
      expectNotFound(await call(t, ana, 'GET', `/api/v1/crawls/${id}/shares`));
    }
    // Still the owner's, untouched.
    expect((await listed(ana, `/api/v1/reports/${report.id}/shares`)).data).toHaveLength(1);
    // A report's id under /crawls is not a crawl's link.
    expectNotFound(await call(t, ana, 'DELETE', `/api/v1/crawls/${crawl.id}/shares/${link.prefix}`));
  });

  it('shares a crawl the same way: create, list, revoke, a crawl link that opens the crawl', async () => {
    const ana = await t.createAccount('ana');
    const crawl = await startCrawl(t, ana, { url: site.url('/'), max_pages: 1 });
    const path = `/api/v1/crawls/${crawl.id}/shares`;
    const response = await call(t, ana, 'POST', path, { expires_in_days: 10 });
    expect(response.statusCode, response.body).toBe(201);
    const link = body(response).data;
    expect(link.token).toMatch(TOKEN);
    expect(response.headers.location).toBe(link.url);
    expect(link.url).toMatch(new RegExp(`/s/${link.token}$`));
    expect(Date.parse(link.expires_at) - Date.parse(link.created_at)).toBe(10 * DAY_MS);
    expect(await t.app.services.shares.resolve(link.token)).toMatchObject({ kind: 'crawl', organizationId: ana.organization, crawl: { id: crawl.id } });
    expect((await listed(ana, path)).data.map((item: Body) => item.prefix)).toEqual([link.prefix]);
    expect(expectInvalid(await call(t, ana, 'POST', path, { expires_in_days: 400 }), 'expires_in_days')).toEqual([RANGE_SENTENCE]);
    expect(body(await call(t, ana, 'DELETE', `${path}/${link.prefix}`))).toEqual({ prefix: link.prefix, object: 'share', deleted: true, status: 200 });
    expect(await t.app.services.shares.resolve(link.token)).toBeNull();
    const row = await handle.db.selectFrom('share_links').selectAll().where('prefix', '=', link.prefix).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ crawl_id: crawl.id, report_id: null });
  });

  it('answers other methods with 405 and Allow, and is described in the OpenAPI document', async () => {
    const ana = await t.createAccount('ana');
    const report = await createReport(t, ana, site.url('/'));
    const put = await call(t, ana, 'PUT', `/api/v1/reports/${report.id}/shares`, {});
    expect(put.statusCode).toBe(405);
    expect(put.headers.allow).toBe('GET, POST, HEAD');
    const get = await call(t, ana, 'GET', `/api/v1/crawls/1/shares/abcdefgh`);
    expect(get.statusCode).toBe(405);
    expect(get.headers.allow).toBe('DELETE');
    const document = (await t.app.inject({ method: 'GET', url: '/api/v1/openapi.json' })).json();
    for (const kind of ['reports', 'crawls']) {
      expect(Object.keys(document.paths[`/api/v1/${kind}/{id}/shares`]).sort()).toEqual(['get', 'post']);
      expect(Object.keys(document.paths[`/api/v1/${kind}/{id}/shares/{token}`])).toEqual(['delete']);
    }
    expect(document.paths['/api/v1/reports/{id}/shares'].post.responses['201'].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/ShareCreated' });
  });

  it('keeps exactly one of report and crawl on every row (the table\'s check)', async () => {
    const ana = await t.createAccount('ana');
    const report = await createReport(t, ana, site.url('/'));
    const crawl = await startCrawl(t, ana, { url: site.url('/'), max_pages: 1 });
    const now = new Date().toISOString();
    const row = (hash: string, reportId: number | null, crawlId: number | null) => ({
      organization_id: ana.organization, report_id: reportId, crawl_id: crawlId, token_hash: hash, prefix: 'abcdefgh',
      created_by: ana.id, created_by_email: ana.email, created_at: now, expires_at: now, revoked_at: null,
    });
    await expect(handle.db.insertInto('share_links').values(row('both', report.id, crawl.id)).execute()).rejects.toThrow();
    await expect(handle.db.insertInto('share_links').values(row('neither', null, null)).execute()).rejects.toThrow();
    await handle.db.insertInto('share_links').values(row('one', report.id, null)).execute();
    // token_hash is unique
    await expect(handle.db.insertInto('share_links').values(row('one', null, crawl.id)).execute()).rejects.toThrow();
  });
});
