// The finish of a large crawl (site checks, inlinks, reasons) on a SQLite file: how long it takes and
// how long the main thread is held at most. `tsx bench/site-checks-scale.ts [pages] [links per page]`
// (default 1,000,000 pages, 20 links each).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createDb } from '../src/db/database.ts';
import { migrateToLatest } from '../src/db/migrate.ts';
import { writeSyntheticCrawl } from '../src/crawl/site-synthetic.ts';
import { finishCrawl } from '../src/services/crawl-finish.ts';
import { insertUser } from '../src/repositories/user.repository.ts';

const pages = Number(process.argv[2] ?? 1_000_000);
const linksPerPage = Number(process.argv[3] ?? 20);
const directory = mkdtempSync(join(tmpdir(), 'pagegrade-site-scale-'));
const file = join(directory, 'pagegrade.db');
const { db, destroy } = createDb(`sqlite:${file}`);
try {
  await migrateToLatest(db);
  const { organization_id: organizationId } = await insertUser(db, { email: 'bench@example.com', is_admin: 0, created_at: new Date().toISOString() });
  const crawl = await db
    .insertInto('crawls')
    .values({ organization_id: organizationId, url: 'https://example.com/', project: 'example.com', state: 'running', max_pages: pages, max_depth: 5, use_sitemap: 1, privacy: 0, render: 0, created_at: new Date().toISOString() })
    .returningAll()
    .executeTakeFirstOrThrow();
  const seeded = performance.now();
  const links = writeSyntheticCrawl(file, crawl.id, { pages, linksPerPage });
  console.log(`wrote ${pages} pages, ${links} links in ${((performance.now() - seeded) / 1000).toFixed(1)} s`);

  let longestGap = 0;
  let last = performance.now();
  const timer = setInterval(() => {
    const now = performance.now();
    longestGap = Math.max(longestGap, now - last);
    last = now;
  }, 10);
  const started = performance.now();
  await finishCrawl(db, crawl, (id, error) => console.error(id, error));
  clearInterval(timer);
  const rss = process.memoryUsage().rss / 2 ** 20;
  console.log(`finish: ${((performance.now() - started) / 1000).toFixed(1)} s, longest 10 ms timer gap ${longestGap.toFixed(0)} ms, rss ${rss.toFixed(0)} MiB`);
} finally {
  await destroy();
  rmSync(directory, { recursive: true, force: true });
}
