// runInProcess (run-cli.ts) leaves nothing running: a binary whose command left a database connection,
// a queue's timers, a browser or a socket open would never exit, but in this process such a leak would
// go unnoticed and pile up over a test file. After commands that open a database, run the queue, the
// analysis threads and a crawl, or fail half-way, the process holds what it held before.
import { describe, expect, it } from 'vitest';
import { createScratchDatabase, TEST_SECRET_KEY, testDialects } from '../support/databases.ts';
import { goodPage, html, linkingPage, startSite } from '../support/site-server.ts';
import { runInProcess } from './run-cli.ts';

/** What keeps this process alive (unref'd handles, such as idle analysis threads, are not listed), sorted. */
const resources = () => process.getActiveResourcesInfo().sort();

/** Waits until the process holds exactly `expected`: the test runner's own timers come and go. */
async function settlesTo(expected: string[], withinMs = 5_000): Promise<string[]> {
  const until = Date.now() + withinMs;
  let now = resources();
  while (JSON.stringify(now) !== JSON.stringify(expected) && Date.now() < until) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    now = resources();
  }
  return now;
}

describe.each(testDialects())('in-process runs release what they open [%s]', (dialect) => {
  it('database, queue, analysis, crawl and a failed command: nothing is left behind', async () => {
    await new Promise((resolve) => setTimeout(resolve, 100));
    const before = resources();
    const scratch = await createScratchDatabase(dialect);
    const site = await startSite({ '/': html(linkingPage('The home page of the coffee roastery', ['/good'])), '/good': html(goodPage()) });
    const env = { DATABASE_URL: scratch.databaseUrl, PAGEGRADE_SECRET_KEY: TEST_SECRET_KEY, PAGEGRADE_ALLOW_PRIVATE_URLS: '1' };
    try {
      const runs = [
        ['migrate'],
        ['users', 'create', '--email', 'leak@example.com'],
        ['webhooks', 'create', '--email', 'leak@example.com', '--url', site.url('/hook')],
        ['keys', 'create', '--email', 'nobody@example.com'],
        ['analyze', site.url('/'), site.url('/good'), '--json'],
        ['crawl', site.url('/'), '--json', '--no-sitemap'],
      ];
      const codes = [];
      for (const args of runs) codes.push((await runInProcess(args, env)).code);
      expect(codes).toEqual([0, 0, 0, 1, 0, 0]);
    } finally {
      await site.close();
      await scratch.drop();
    }
    expect(await settlesTo(before)).toEqual(before);
  });
});
