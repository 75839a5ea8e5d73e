// Found by an attack on the web side: a hundred wrong passwords sent at once to a password-protected
// report page were all judged (in memory; 45 of them with Redis) against a limit of 5, and the right
// password then opened the page. Each try is now counted before the password hash judges it: at most 5
// are judged, the rest get 429 with Retry-After, and the address stays locked out even with the right
// password.
import { randomInt } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UNLOCK_KEY_PREFIX } from '../../src/web/redis-attempt-store.ts';
import { startTestApp, type TestApp } from '../support/api-app.ts';
import { TEST_REDIS_URL, testRedisAvailable } from '../support/redis.ts';
import { goodPage, html, startSite, type Site } from '../support/site-server.ts';
import { WebClient } from './web-client.ts';

const SECRET = 'correct horse battery staple';
const redisAvailable = await testRedisAvailable();

describe.each([
  ['memory', false],
  ['redis', true],
] as const)('password guesses sent at once [%s store]', (_store, useRedis) => {
  // An address of this run only: with Redis the keys are the app's real ones.
  const address = `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}`;
  let t: TestApp;
  let site: Site;
  let reportId: number;

  beforeAll(async () => {
    if (useRedis && !redisAvailable) return;
    t = await startTestApp('sqlite', useRedis ? { redisUrl: TEST_REDIS_URL } : {});
    site = await startSite({ '/password': html(goodPage('A password page about coffee prices')) });
    const owner = await t.createAccount('owner');
    reportId = (await t.app.services.reports.create(owner.organization, { url: site.url('/password'), privacy: 2, password: SECRET })).id;
  });
  afterAll(async () => {
    await t?.app.redis?.del(`${UNLOCK_KEY_PREFIX}${reportId}|${address}`);
    await t?.close();
    await site?.close();
  });

  it.skipIf(useRedis && !redisAvailable)('judges at most 5 of 100, refuses the rest, then refuses the right password', async () => {
    const attacker = new WebClient(t.app, address);
    await attacker.get(`/reports/${reportId}`);
    const answers = await Promise.all(
      Array.from({ length: 100 }, (_, i) => attacker.post(`/reports/${reportId}/unlock`, { password: `guess ${i}` })),
    );
    const judged = answers.filter((answer) => answer.statusCode === 403);
    const refused = answers.filter((answer) => answer.statusCode === 429);
    expect(judged.length).toBeLessThanOrEqual(5);
    expect(judged.length + refused.length).toBe(100);
    for (const answer of refused) expect(Number(answer.headers['retry-after'])).toBeGreaterThan(0);

    const right = await attacker.post(`/reports/${reportId}/unlock`, { password: SECRET });
    expect(right.statusCode).toBe(429);
    expect(attacker.cookies.has(`pagegrade_unlock_report_${reportId}`)).toBe(false);
  });
});
