// PAGEGRADE_ALLOWED_ADDRESSES through the real app (docs/crawls.md, "Address guard"): a loopback page
// is analysed when its address is listed, though private addresses are not allowed, and refused when
// it is not; a neighbouring loopback address stays refused. Crawls and webhooks get the same answer
// when they are asked for (no background job runs: the apps take no jobs).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { startTestApp, type TestApp } from '../support/api-app.ts';
import { goodPage, html, startSite, type Site } from '../support/site-server.ts';
import { body, call, expectInvalid } from '../support/api-fixtures.ts';

describe('PAGEGRADE_ALLOWED_ADDRESSES through the API', () => {
  let allowing: TestApp;
  let guarded: TestApp;
  let site: Site;

  beforeAll(async () => {
    // As the server reads the setting; private addresses stay refused in both apps.
    const { allowedAddresses } = loadConfig({ PAGEGRADE_ALLOWED_ADDRESSES: '127.0.0.1' });
    allowing = await startTestApp('sqlite', { allowPrivateUrls: false, allowedAddresses, workers: 0 });
    guarded = await startTestApp('sqlite', { allowPrivateUrls: false, workers: 0 });
    site = await startSite({ '/': html(goodPage()) });
  });
  afterAll(async () => {
    await site?.close();
    await allowing?.close();
    await guarded?.close();
  });

  it('analyses a page on an allowed loopback address', async () => {
    const account = await allowing.createAccount();
    const response = await call(allowing, account, 'POST', '/api/v1/reports', { url: site.url('/') });
    expect(response.statusCode, response.body).toBe(201);
    const report = body(response).data;
    expect(report.page.status_code).toBe(200);
    expect(report.score).toBeGreaterThan(0);
    expect(site.requests).toContain('/');
  });

  it('refuses the same page without the setting, and a loopback address the setting does not list', async () => {
    const before = site.requests.length;
    const refused = expectInvalid(await call(guarded, await guarded.createAccount(), 'POST', '/api/v1/reports', { url: site.url('/') }), 'url');
    expect(refused.join(' ')).toMatch(/127\.0\.0\.1 is a loopback address/);
    const neighbour = site.url('/').replace('127.0.0.1', '127.0.0.2');
    const stillRefused = expectInvalid(await call(allowing, await allowing.createAccount(), 'POST', '/api/v1/reports', { url: neighbour }), 'url');
    expect(stillRefused.join(' ')).toMatch(/127\.0\.0\.2 is a loopback address/);
    expect(site.requests.length).toBe(before);
  });

  it('lets a crawl and a webhook name the allowed address, and only that one', async () => {
    const account = await allowing.createAccount();
    const crawl = await call(allowing, account, 'POST', '/api/v1/crawls', { url: site.url('/') });
    expect(crawl.statusCode, crawl.body).toBe(202);
    const hook = await call(allowing, account, 'POST', '/api/v1/webhooks', { url: `${site.origin}/hook` });
    expect(hook.statusCode, hook.body).toBe(201);
    expect(expectInvalid(await call(allowing, account, 'POST', '/api/v1/webhooks', { url: 'http://10.1.2.3/hook' }), 'url').join(' ')).toMatch(/10\.1\.2\.3 is a private address/);
    const other = await guarded.createAccount();
    expectInvalid(await call(guarded, other, 'POST', '/api/v1/crawls', { url: site.url('/') }), 'url');
    expectInvalid(await call(guarded, other, 'POST', '/api/v1/webhooks', { url: `${site.origin}/hook` }), 'url');
  });
});
