// With REDIS_URL the wrong-password limit of report pages holds across server processes: two apps on
// one database and one Redis count an address's wrong passwords for a report together, where each
// would allow 5 on its own. Skipped without Redis, unless PAGEGRADE_REQUIRE_REDIS=1.
import { randomInt } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig, type Config } from '../../src/config.ts';
import { openDatabase, type AppDatabase } from '../../src/db/open-database.ts';
import { buildApp } from '../../src/http/app.ts';
import { UNLOCK_KEY_PREFIX } from '../../src/web/redis-attempt-store.ts';
import { createScratchDatabase, type ScratchDatabase } from '../support/databases.ts';
import { TEST_REDIS_URL, testRedisAvailable } from '../support/redis.ts';
import { goodPage, html, startSite, type Site } from '../support/site-server.ts';
import { WebClient } from './web-client.ts';

const SECRET = 'correct horse battery staple';
const available = await testRedisAvailable();
// An address of this run only: the keys are the app's real ones, so earlier runs must not count.
const address = `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}`;

describe.skipIf(!available)('report unlock limit shared through Redis', () => {
  let scratch: ScratchDatabase;
  let database: AppDatabase;
  let site: Site;
  let apps: FastifyInstance[] = [];
  let reportId: number;

  beforeAll(async () => {
    scratch = await createScratchDatabase('sqlite');
    database = await openDatabase(scratch.databaseUrl);
    const config: Config = {
      ...loadConfig({}),
      databaseUrl: scratch.databaseUrl,
      redisUrl: TEST_REDIS_URL,
      allowPrivateUrls: true,
      logLevel: false,
    };
    apps = [await buildApp(config, { database }), await buildApp(config, { database })];
    site = await startSite({ '/password': html(goodPage('A password page about coffee prices')) });
    const { account } = await apps[0].services.accounts.createUser('owner@example.test', false);
    reportId = (await apps[0].services.reports.create(account.organization_id, { url: site.url('/password'), privacy: 2, password: SECRET })).id;
  });
  afterAll(async () => {
    await apps[0]?.redis?.del(`${UNLOCK_KEY_PREFIX}${reportId}|${address}`);
    await Promise.all(apps.map((app) => app.close()));
    await site?.close();
    await database?.close();
    await scratch?.drop();
  });

  it('refuses the sixth try at either app after five wrong passwords spread over both', async () => {
    const browsers = apps.map((app) => new WebClient(app, address));
    for (const browser of browsers) await browser.get(`/reports/${reportId}`);
    for (let attempt = 0; attempt < 5; attempt += 1) {
      const wrong = await browsers[attempt % 2].post(`/reports/${reportId}/unlock`, { password: `guess ${attempt}` });
      expect(wrong.statusCode, `attempt ${attempt + 1}`).toBe(403);
    }
    for (const browser of browsers) {
      const refused = await browser.post(`/reports/${reportId}/unlock`, { password: SECRET });
      expect(refused.statusCode).toBe(429);
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    }
  });
});
