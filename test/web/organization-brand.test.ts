// Per-organisation white-label (docs/organisations.md, "White-label"): an organisation's report pages,
// their runs and comparison, the password form and its share links wear its name, logo and colour;
// another organisation's pages, and fields left unset, keep the server's brand.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/api-app.ts';
import { testDialects } from '../support/databases.ts';
import { goodPage, html, startSite, type Site } from '../support/site-server.ts';
import { body, call, type Account } from '../support/api-fixtures.ts';
import { WebClient } from './web-client.ts';

const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.from('a logo')]);

describe.each(testDialects())('organisation brand on pages [%s]', (dialect) => {
  let t: TestApp;
  let site: Site;
  let ana: Account;
  let fernhill: number;
  let inOrg: Record<string, string>;

  beforeAll(async () => {
    t = await startTestApp(dialect);
    site = await startSite({ '/': html(goodPage()) });
    ana = await t.createAccount('ana');
    fernhill = body(await call(t, ana, 'POST', '/api/v1/organizations', { name: 'Fernhill Partners' })).data.id;
    inOrg = { 'pagegrade-organization': String(fernhill) };
    const branded = await t.app.inject({
      method: 'PUT',
      url: `/api/v1/organizations/${fernhill}`,
      headers: { ...ana.auth, 'content-type': 'application/json' },
      payload: { brand_name: 'Fernhill Audits', brand_color: '#1a7f37', brand_logo: `data:image/png;base64,${PNG.toString('base64')}` },
    });
    expect(branded.statusCode, branded.body).toBe(200);
  });
  afterAll(async () => {
    await t?.close();
    await site?.close();
  });

  async function report(headers: Record<string, string>, fields: Record<string, string> = {}): Promise<number> {
    const response = await call(t, ana, 'POST', '/api/v1/reports', { url: site.url('/'), ...fields }, headers);
    expect(response.statusCode, response.body).toBe(201);
    return body(response).data.id;
  }

  const page = async (url: string) => (await t.app.inject({ method: 'GET', url })).body;

  function expectFernhill(document: string): void {
    expect(document).toContain('Report by <span class="brand-credit">Fernhill Audits</span>.');
    expect(document).toMatch(new RegExp(`<img class="brand-logo" src="/brand/organizations/${fernhill}/logo\\?v=\\w+"`));
    expect(document).toMatch(new RegExp(`<link rel="stylesheet" href="/brand/organizations/${fernhill}/theme\\.css\\?v=\\w+">`));
    expect(document).not.toContain('Made with pagegrade');
  }

  it('the organisation\'s report page, its runs and comparison wear its brand; the personal organisation\'s do not', async () => {
    const id = await report(inOrg);
    for (const path of [`/reports/${id}`, `/reports/${id}/runs`, `/reports/${id}/compare`]) expectFernhill(await page(path));
    const personal = await page(`/reports/${await report({})}`);
    expect(personal).not.toContain('Fernhill');
    expect(personal).toContain('Made with pagegrade');
  });

  it('the password form of its report wears it, as do its share links', async () => {
    const locked = await report(inOrg, { privacy: '2', password: 'a long secret' });
    expectFernhill(await page(`/reports/${locked}`));

    const shared = await call(t, ana, 'POST', `/api/v1/reports/${await report(inOrg, { privacy: '1' })}/shares`, {}, inOrg);
    expect(shared.statusCode, shared.body).toBe(201);
    expectFernhill(await page(new URL(body(shared).data.url).pathname));
  });

  it('a field left unset falls back to the server\'s: a name alone keeps the server\'s colour and logo', async () => {
    const plain = body(await call(t, ana, 'POST', '/api/v1/organizations', { name: 'Plain' })).data.id;
    await call(t, ana, 'PUT', `/api/v1/organizations/${plain}`, { brand_name: 'Plain Name' });
    const document = await page(`/reports/${await report({ 'pagegrade-organization': String(plain) })}`);
    expect(document).toContain('Report by <span class="brand-credit">Plain Name</span>.');
    expect(document).not.toContain(`/brand/organizations/${plain}/logo`);
    expect(document).not.toContain(`/brand/organizations/${plain}/theme.css`);
  });

  it('a private report opens to every signed-in member of its organisation, and a password report without the password; to no one else', async () => {
    const vera = await t.createAccount('vera');
    const eve = await t.createAccount('eve');
    await call(t, ana, 'POST', `/api/v1/organizations/${fernhill}/members`, { email: vera.email, role: 'viewer' });
    const hidden = await report(inOrg, { privacy: '1' });
    const locked = await report(inOrg, { privacy: '2', password: 'a long secret' });
    const member = new WebClient(t.app);
    await member.signIn(vera.key);
    const stranger = new WebClient(t.app);
    await stranger.signIn(eve.key);
    const seen = await member.get(`/reports/${hidden}`);
    expect(seen.statusCode).toBe(200);
    expectFernhill(seen.body);
    // A viewer gets no dashboard controls (manage, delete).
    expect(seen.body).not.toContain(`href="/dashboard/reports/${hidden}"`);
    const unlocked = await member.get(`/reports/${locked}`);
    expect(unlocked.statusCode).toBe(200);
    expect(unlocked.body).not.toContain('name="password"');
    expect((await stranger.get(`/reports/${hidden}`)).statusCode).toBe(404);
    const owner = new WebClient(t.app);
    await owner.signIn(ana.key);
    const mine = await report({}, { privacy: '1' });
    expect((await owner.get(`/reports/${mine}`)).body).toContain(`href="/dashboard/reports/${mine}"`);
    expect((await stranger.get(`/reports/${locked}`)).body).toContain('name="password"');
  });
});
