// Bounded analyses: an account at its limit gets 429, a full server 503, both with Retry-After,
// and nothing is stored for the refused request.
import { afterEach, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/api-app.ts';
import { goodPage, startSite, type Site } from '../support/site-server.ts';
import { testDialects } from '../support/databases.ts';

describe.each(testDialects())('analysis limits [%s]', (dialect) => {
  let testApp: TestApp | undefined;
  let site: Site | undefined;
  afterEach(async () => {
    await site?.close();
    await testApp?.close();
  });

  /** A site whose /slow page answers only when released. */
  async function slowSite() {
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    site = await startSite({
      '/slow': (_request, response) => {
        void released.then(() => {
          response.writeHead(200, { 'content-type': 'text/html' });
          response.end(goodPage());
        });
      },
    });
    return { url: site.url('/slow'), release };
  }

  /** Waits until `count` analyses have reached the slow page (so they hold their slots). */
  async function waitForInFlight(count: number) {
    for (let i = 0; i < 500; i++) {
      if (site!.requests.filter((path) => path === '/slow').length >= count) return;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    throw new Error(`only ${site!.requests.length} requests reached the site`);
  }

  it('answers 429 with Retry-After when the account already runs its maximum', async () => {
    testApp = await startTestApp(dialect, { maxAnalysesPerAccount: 1, maxAnalyses: 10 });
    const ana = await testApp.createAccount('ana');
    const bob = await testApp.createAccount('bob');
    const slow = await slowSite();
    const first = testApp.app.inject({ method: 'POST', url: '/api/v1/reports', headers: ana.auth, payload: { url: slow.url } });
    await waitForInFlight(1);
    const refused = await testApp.app.inject({ method: 'POST', url: '/api/v1/reports', headers: ana.auth, payload: { url: slow.url } });
    expect(refused.statusCode).toBe(429);
    expect(refused.headers['retry-after']).toBe('5');
    expect(refused.json()).toMatchObject({ status: 429, message: expect.stringContaining('limit is 1') });
    // Another account is not held back by ana's analyses.
    const other = testApp.app.inject({ method: 'POST', url: '/api/v1/reports', headers: bob.auth, payload: { url: slow.url } });
    await waitForInFlight(2);
    slow.release();
    expect((await first).statusCode).toBe(201);
    expect((await other).statusCode).toBe(201);
    const list = await testApp.app.inject({ method: 'GET', url: '/api/v1/reports', headers: ana.auth });
    expect(list.json().meta.total).toBe(1);
  });

  it('answers 503 with Retry-After when the server runs its maximum', async () => {
    testApp = await startTestApp(dialect, { maxAnalysesPerAccount: 5, maxAnalyses: 1 });
    const ana = await testApp.createAccount('ana');
    const bob = await testApp.createAccount('bob');
    const slow = await slowSite();
    const first = testApp.app.inject({ method: 'POST', url: '/api/v1/reports', headers: ana.auth, payload: { url: slow.url } });
    await waitForInFlight(1);
    const refused = await testApp.app.inject({ method: 'POST', url: '/api/v1/reports', headers: bob.auth, payload: { url: slow.url } });
    expect(refused.statusCode).toBe(503);
    expect(refused.headers['retry-after']).toBe('5');
    slow.release();
    expect((await first).statusCode).toBe(201);
  });
});
