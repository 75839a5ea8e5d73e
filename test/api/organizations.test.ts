// /api/v1/organizations and the organisation a request acts in (docs/organisations.md): create, list,
// read, rename and delete; the header and the query parameter that pick one; a non-member's 404 for
// everything; members with roles, the last owner kept.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/api-app.ts';
import { testDialects } from '../support/databases.ts';
import { startSite, html, type Site } from '../support/site-server.ts';
import { ISO_TIME, body, call, expectInvalid, expectNotFound, type Account, type Body } from '../support/api-fixtures.ts';

const PAGE = html('<html lang="en"><head><title>Coffee prices this week in the city</title></head><body><h1>Coffee</h1><p>Prices.</p></body></html>');

describe.each(testDialects())('/api/v1/organizations [%s]', (dialect) => {
  let t: TestApp;
  let site: Site;

  beforeAll(async () => {
    t = await startTestApp(dialect);
    site = await startSite({ '/': PAGE });
  });
  afterAll(async () => {
    await t?.close();
    await site?.close();
  });

  async function createOrganization(account: Account, name = 'Fernhill Partners'): Promise<Body> {
    const response = await call(t, account, 'POST', '/api/v1/organizations', { name });
    expect(response.statusCode, response.body).toBe(201);
    return body(response).data;
  }

  async function addMember(owner: Account, organization: number, member: Account, role: string): Promise<void> {
    const response = await call(t, owner, 'POST', `/api/v1/organizations/${organization}/members`, { email: member.email, role });
    expect(response.statusCode, response.body).toBe(201);
  }

  it('creates one: 201 with Location, the caller its only member as owner; lists the personal one first', async () => {
    const ana = await t.createAccount('ana');
    const response = await call(t, ana, 'POST', '/api/v1/organizations', { name: '  Fernhill Partners  ' });
    expect(response.statusCode, response.body).toBe(201);
    const created = body(response).data;
    expect(response.headers.location).toBe(`/api/v1/organizations/${created.id}`);
    expect(created).toEqual({
      id: expect.any(Number), name: 'Fernhill Partners', personal: false, role: 'owner', brand_name: null, brand_color: null, brand_logo: null,
      members_count: 1, created_at: expect.stringMatching(ISO_TIME), updated_at: expect.stringMatching(ISO_TIME),
    });
    const list = body(await call(t, ana, 'GET', '/api/v1/organizations'));
    expect(list.data.map((org: Body) => [org.id, org.name, org.personal, org.role])).toEqual([
      [ana.organization, ana.email, true, 'owner'],
      [created.id, 'Fernhill Partners', false, 'owner'],
    ]);
    expect(list.meta.total).toBe(2);
    expect(body(await call(t, ana, 'GET', `/api/v1/organizations/${created.id}`)).data).toEqual(created);
  });

  it('a name missing, empty or over 100 characters is a 422 on name', async () => {
    const ana = await t.createAccount('ana');
    expectInvalid(await call(t, ana, 'POST', '/api/v1/organizations', {}), 'name');
    expectInvalid(await call(t, ana, 'POST', '/api/v1/organizations', { name: '   ' }), 'name');
    expect(expectInvalid(await call(t, ana, 'POST', '/api/v1/organizations', { name: 'x'.repeat(101) }), 'name')).toEqual(['The name must be 1 to 100 characters.']);
    expect((await call(t, ana, 'POST', '/api/v1/organizations', { name: 'x'.repeat(100) })).statusCode).toBe(201);
  });

  it('an organisation the caller is not a member of is a 404 for every path and method, and so is a bad id', async () => {
    const ana = await t.createAccount('ana');
    const eve = await t.createAccount('eve');
    const fernhill = await createOrganization(ana);
    for (const [method, path] of [['GET', ''], ['PUT', ''], ['DELETE', ''], ['GET', '/members'], ['POST', '/members']] as const) {
      expectNotFound(await call(t, eve, method, `/api/v1/organizations/${fernhill.id}${path}`, method === 'GET' || method === 'DELETE' ? undefined : { name: 'x', email: 'a@b.test', role: 'viewer' }));
    }
    expectNotFound(await call(t, ana, 'GET', '/api/v1/organizations/abc'));
    expectNotFound(await call(t, ana, 'GET', '/api/v1/organizations/0'));
    // Naming it in a request is a 404 whatever the path, even for the caller's own account.
    for (const path of ['/api/v1/reports', '/api/v1/account', '/api/v1/crawls', `/api/v1/reports?organization=${fernhill.id}`]) {
      expectNotFound(await call(t, eve, 'GET', path, undefined, path.includes('?') ? {} : { 'pagegrade-organization': String(fernhill.id) }));
    }
    expectNotFound(await call(t, ana, 'GET', '/api/v1/reports', undefined, { 'pagegrade-organization': 'abc' }));
    expectNotFound(await call(t, ana, 'GET', '/api/v1/reports?organization=-1'));
  });

  it('a report made in an organisation is its own: listed there, not in the personal one; the header wins over the query', async () => {
    const ana = await t.createAccount('ana');
    const fernhill = await createOrganization(ana);
    const inOrg = { 'pagegrade-organization': String(fernhill.id) };
    const created = await call(t, ana, 'POST', '/api/v1/reports', { url: site.url('/') }, inOrg);
    expect(created.statusCode, created.body).toBe(201);
    const report = body(created).data;
    expect(report.organization).toBe(fernhill.id);
    expect(body(await call(t, ana, 'GET', '/api/v1/reports')).data).toEqual([]);
    expectNotFound(await call(t, ana, 'GET', `/api/v1/reports/${report.id}`));
    expect(body(await call(t, ana, 'GET', `/api/v1/reports/${report.id}`, undefined, inOrg)).data.id).toBe(report.id);
    const byQuery = body(await call(t, ana, 'GET', `/api/v1/reports?organization=${fernhill.id}&per_page=10`));
    expect(byQuery.data.map((r: Body) => r.id)).toEqual([report.id]);
    expect(byQuery.links.first).toContain(`organization=${fernhill.id}`);
    // Both sent: the header's organisation (the personal one here) is the one acted in.
    const both = body(await call(t, ana, 'GET', `/api/v1/reports?organization=${fernhill.id}`, undefined, { 'pagegrade-organization': String(ana.organization) }));
    expect(both.data).toEqual([]);
    expect(body(await call(t, ana, 'GET', '/api/v1/projects', undefined, inOrg)).data.map((p: Body) => p.project)).toEqual([new URL(site.url('/')).host]);
    // /account is about the caller: an organisation named changes nothing.
    expect(body(await call(t, ana, 'GET', '/api/v1/account', undefined, inOrg)).data).toEqual(body(await call(t, ana, 'GET', '/api/v1/account')).data);
  });

  it('renames (admin and up), and deletes (owner) with all it owns; a personal one is not deleted', async () => {
    const ana = await t.createAccount('ana');
    const fernhill = await createOrganization(ana);
    const renamed = await call(t, ana, 'PUT', `/api/v1/organizations/${fernhill.id}`, { name: 'Fernhill & Co' });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect(body(renamed).data.name).toBe('Fernhill & Co');
    expectInvalid(await call(t, ana, 'PUT', `/api/v1/organizations/${fernhill.id}`, { name: '' }), 'name');
    const report = body(await call(t, ana, 'POST', '/api/v1/reports', { url: site.url('/') }, { 'pagegrade-organization': String(fernhill.id) })).data;

    const personal = await call(t, ana, 'DELETE', `/api/v1/organizations/${ana.organization}`);
    expect(expectInvalid(personal, 'organization')).toEqual(['A personal organisation is deleted only with its account.']);
    const deleted = await call(t, ana, 'DELETE', `/api/v1/organizations/${fernhill.id}`);
    expect(body(deleted)).toEqual({ id: fernhill.id, object: 'organization', deleted: true, status: 200 });
    expectNotFound(await call(t, ana, 'GET', `/api/v1/organizations/${fernhill.id}`));
    expectNotFound(await call(t, ana, 'GET', `/api/v1/reports/${report.id}`, undefined, { 'pagegrade-organization': String(fernhill.id) }));
    expect(await t.app.services.reports.show(fernhill.id, report.id).catch((error: Error) => error.message)).toBe('Resource not found.');
  });

  it('members: added by e-mail (a new address gets an account and its key once), listed in order, their role changed, removed', async () => {
    const ana = await t.createAccount('ana');
    const vera = await t.createAccount('vera');
    const fernhill = await createOrganization(ana);
    const added = await call(t, ana, 'POST', `/api/v1/organizations/${fernhill.id}/members`, { email: vera.email, role: 'viewer' });
    expect(added.statusCode, added.body).toBe(201);
    expect(added.headers.location).toBe(`/api/v1/organizations/${fernhill.id}/members/${vera.id}`);
    expect(body(added).data).toEqual({ user_id: vera.id, email: vera.email, role: 'viewer', added_at: expect.stringMatching(ISO_TIME) });

    const newcomer = await call(t, ana, 'POST', `/api/v1/organizations/${fernhill.id}/members`, { email: 'New.Person@Client.test', role: 'editor' });
    expect(newcomer.statusCode, newcomer.body).toBe(201);
    const made = body(newcomer).data;
    expect(made).toMatchObject({ email: 'new.person@client.test', role: 'editor' });
    expect(made.api_key).toMatch(/^pg_/);
    const own = body(await t.app.inject({ method: 'GET', url: '/api/v1/organizations', headers: { authorization: `Bearer ${made.api_key}` } }));
    // By id: this account (and its personal organisation) was made after Fernhill.
    expect(own.data.map((org: Body) => [org.name, org.personal, org.role])).toEqual([['Fernhill Partners', false, 'editor'], ['new.person@client.test', true, 'owner']]);

    const list = body(await call(t, ana, 'GET', `/api/v1/organizations/${fernhill.id}/members`));
    expect(list.data.map((m: Body) => [m.email, m.role])).toEqual([[ana.email, 'owner'], [vera.email, 'viewer'], ['new.person@client.test', 'editor']]);
    expect(body(await call(t, ana, 'GET', `/api/v1/organizations/${fernhill.id}`)).data.members_count).toBe(3);

    expect(expectInvalid(await call(t, ana, 'POST', `/api/v1/organizations/${fernhill.id}/members`, { email: vera.email, role: 'viewer' }), 'email')[0]).toContain('already a member');
    expectInvalid(await call(t, ana, 'POST', `/api/v1/organizations/${fernhill.id}/members`, { email: 'not an address', role: 'viewer' }), 'email');
    expect(expectInvalid(await call(t, ana, 'POST', `/api/v1/organizations/${fernhill.id}/members`, { email: 'x@y.test', role: 'boss' }), 'role')).toEqual(['The role must be one of owner, admin, editor, viewer.']);
    expect(expectInvalid(await call(t, ana, 'POST', `/api/v1/organizations/${ana.organization}/members`, { email: vera.email, role: 'viewer' }), 'email')).toEqual([
      'A personal organisation has only its owner; create an organisation to work with others.',
    ]);

    const changed = await call(t, ana, 'PUT', `/api/v1/organizations/${fernhill.id}/members/${vera.id}`, { role: 'admin' });
    expect(body(changed).data).toMatchObject({ user_id: vera.id, role: 'admin' });
    expectInvalid(await call(t, ana, 'PUT', `/api/v1/organizations/${fernhill.id}/members/${vera.id}`, { role: 'boss' }), 'role');
    expectNotFound(await call(t, ana, 'PUT', `/api/v1/organizations/${fernhill.id}/members/999999`, { role: 'viewer' }));

    const removed = await call(t, ana, 'DELETE', `/api/v1/organizations/${fernhill.id}/members/${vera.id}`);
    expect(body(removed)).toEqual({ user_id: vera.id, object: 'member', deleted: true, status: 200 });
    expectNotFound(await call(t, vera, 'GET', `/api/v1/organizations/${fernhill.id}`));
    expectNotFound(await call(t, vera, 'GET', '/api/v1/reports', undefined, { 'pagegrade-organization': String(fernhill.id) }));
  });

  it('keeps at least one owner; only an owner makes, changes or removes owners; anyone may leave', async () => {
    const ana = await t.createAccount('ana');
    const adam = await t.createAccount('adam');
    const olga = await t.createAccount('olga');
    const fernhill = await createOrganization(ana);
    await addMember(ana, fernhill.id, adam, 'admin');
    const last = 'An organisation keeps at least one owner: make another member an owner first.';
    expect(expectInvalid(await call(t, ana, 'PUT', `/api/v1/organizations/${fernhill.id}/members/${ana.id}`, { role: 'admin' }), 'role')).toEqual([last]);
    expect(expectInvalid(await call(t, ana, 'DELETE', `/api/v1/organizations/${fernhill.id}/members/${ana.id}`), 'user_id')).toEqual([last]);

    const refused = (response: Awaited<ReturnType<typeof call>>, sentence: string) => {
      expect(response.statusCode, response.body).toBe(403);
      expect(body(response)).toEqual({ message: `Your role in this organisation (admin) cannot ${sentence}.`, status: 403 });
    };
    refused(await call(t, adam, 'POST', `/api/v1/organizations/${fernhill.id}/members`, { email: olga.email, role: 'owner' }), 'make owners');
    refused(await call(t, adam, 'PUT', `/api/v1/organizations/${fernhill.id}/members/${ana.id}`, { role: 'viewer' }), 'change owners');
    refused(await call(t, adam, 'DELETE', `/api/v1/organizations/${fernhill.id}/members/${ana.id}`), 'change owners');
    refused(await call(t, adam, 'DELETE', `/api/v1/organizations/${fernhill.id}`), 'delete the organisation');

    await addMember(ana, fernhill.id, olga, 'owner');
    expect(body(await call(t, ana, 'PUT', `/api/v1/organizations/${fernhill.id}/members/${ana.id}`, { role: 'editor' })).data.role).toBe('editor');
    const left = await call(t, adam, 'DELETE', `/api/v1/organizations/${fernhill.id}/members/${adam.id}`);
    expect(left.statusCode, left.body).toBe(200);
    expectNotFound(await call(t, adam, 'GET', `/api/v1/organizations/${fernhill.id}`));
  });

  it('white-label: a name, a #rrggbb colour and a logo as a data: URL of its real type, served without auth; null clears', async () => {
    const ana = await t.createAccount('ana');
    const fernhill = await createOrganization(ana);
    const png = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.from('rest of a png')]);
    const put = (payload: Record<string, unknown>) =>
      t.app.inject({ method: 'PUT', url: `/api/v1/organizations/${fernhill.id}`, headers: { ...ana.auth, 'content-type': 'application/json' }, payload });
    const branded = await put({ brand_name: 'Fernhill', brand_color: '#1A7F37', brand_logo: `data:image/png;base64,${png.toString('base64')}` });
    expect(branded.statusCode, branded.body).toBe(200);
    const data = body(branded).data;
    expect(data).toMatchObject({ brand_name: 'Fernhill', brand_color: '#1a7f37' });
    expect(data.brand_logo).toMatch(new RegExp(`^http://localhost(:80)?/brand/organizations/${fernhill.id}/logo\\?v=\\w+$`));
    const logo = await t.app.inject({ method: 'GET', url: new URL(data.brand_logo).pathname + new URL(data.brand_logo).search });
    expect(logo.statusCode).toBe(200);
    expect(logo.headers['content-type']).toBe('image/png');
    expect(logo.rawPayload.equals(png)).toBe(true);
    const theme = await t.app.inject({ method: 'GET', url: `/brand/organizations/${fernhill.id}/theme.css` });
    expect(theme.body).toContain('--brand: #1a7f37');

    expect(expectInvalid(await put({ brand_color: 'green' }), 'brand_color')).toEqual(['The brand colour must be a colour written #rrggbb.']);
    expectInvalid(await put({ brand_name: 'x'.repeat(61) }), 'brand_name');
    expect(expectInvalid(await put({ brand_logo: `data:image/jpeg;base64,${png.toString('base64')}` }), 'brand_logo')[0]).toContain('not a image/jpeg image');
    expect(expectInvalid(await put({ brand_logo: 'data:image/bmp;base64,Qk0=' }), 'brand_logo')[0]).toContain('image/png, image/jpeg, image/webp, image/gif, image/svg+xml');
    const huge = Buffer.concat([png, Buffer.alloc(1_048_577 - png.length)]);
    expect(expectInvalid(await put({ brand_logo: `data:image/png;base64,${huge.toString('base64')}` }), 'brand_logo')[0]).toContain('at most 1 MiB');
    const tooBig = await put({ brand_logo: `data:image/png;base64,${'A'.repeat(2 * 1024 * 1024)}` });
    expect([tooBig.statusCode, body(tooBig).message]).toEqual([413, `The request body must be at most ${2 * 1024 * 1024} bytes.`]);
    const svg = await put({ brand_logo: `data:image/svg+xml;base64,${Buffer.from('<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg"/>').toString('base64')}` });
    expect(svg.statusCode, svg.body).toBe(200);

    const cleared = body(await put({ brand_name: null, brand_color: null, brand_logo: null })).data;
    expect(cleared).toMatchObject({ brand_name: null, brand_color: null, brand_logo: null });
    expect((await t.app.inject({ method: 'GET', url: `/brand/organizations/${fernhill.id}/logo` })).statusCode).toBe(404);
    const form = await call(t, ana, 'PUT', `/api/v1/organizations/${fernhill.id}`, { brand_name: 'Again', brand_color: '' });
    expect(body(form).data).toMatchObject({ brand_name: 'Again', brand_color: null });
  });
});
