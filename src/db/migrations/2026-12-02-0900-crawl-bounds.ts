// Crawls bounded, and at a million pages (docs/crawls.md, "Bounds"). A crawl counts the requests it
// sends to its host, the URLs it visited and those it could not store (a full frontier), and whether a
// bound cut it short; a URL it left unvisited says why; a page's facts live in columns and its links in
// a table of their own (two ids a link), so the site checks run as queries over the stored crawl
// instead of reading every page into memory. Frozen: never import application code here.
import { PostgresAdapter, sql, type Kysely } from 'kysely';

interface StoredFacts {
  title?: string | null;
  description?: string | null;
  canonical?: string | null;
  noindex?: boolean;
  textHash?: string | null;
  hreflang?: { lang: string; url: string }[];
  links?: string[];
  nofollow?: string[];
}

const BATCH = 500;

export async function up(db: Kysely<any>): Promise<void> {
  await inTransaction(db, async (trx) => {
    await addColumns(trx);
    await moveFacts(trx);
    await trx.schema.alterTable('crawl_pages').dropColumn('facts').execute();
  });
}

async function addColumns(db: Kysely<any>): Promise<void> {
  const isPostgres = db.getExecutor().adapter instanceof PostgresAdapter;
  const text = isPostgres ? sql`text collate "C"` : sql`text`;
  const idType = isPostgres ? 'bigint' : 'integer';
  const zero = (column: any) => column.notNull().defaultTo(0);

  // HTTP requests sent to the crawled host (robots.txt, sitemaps there, probes, pages, retries).
  await db.schema.alterTable('crawls').addColumn('requests', 'integer', zero).execute();
  // URLs of the host fetched (any answer, or none): pages_found - pages_visited are unvisited.
  await db.schema.alterTable('crawls').addColumn('pages_visited', 'integer', zero).execute();
  // Found while the frontier was full: counted as found and unvisited, never stored.
  await db.schema.alterTable('crawls').addColumn('pages_unstored', 'integer', zero).execute();
  // 1: a bound left part of the site unvisited, or a page's links were dropped.
  await db.schema.alterTable('crawls').addColumn('limit_reached', 'integer', zero).execute();
  // While the crawl's start requests (robots.txt, sitemaps, probes) are under way: they count among
  // the host's requests at once, as a fetching page does.
  await db.schema.alterTable('crawls').addColumn('start_lease_until', text).execute();
  // While one job runs the crawl's finish (site checks, inlinks): the others find nothing to claim at
  // the same moment and leave it to that one.
  await db.schema.alterTable('crawls').addColumn('finishing_until', text).execute();

  // Why a URL found was never fetched: max_pages | max_depth | limit | excluded | robots; else null.
  await db.schema.alterTable('crawl_pages').addColumn('reason', text).execute();
  // Redirects in a row that led here from the first URL found by a link, a sitemap or the start.
  await db.schema.alterTable('crawl_pages').addColumn('redirects', 'integer', zero).execute();
  // A page's links past the first 1,000 targets: ignored, counted.
  await db.schema.alterTable('crawl_pages').addColumn('links_dropped', 'integer', zero).execute();
  // The facts of an analysed HTML page the site checks read (html = 1 marks one).
  await db.schema.alterTable('crawl_pages').addColumn('html', 'integer', zero).execute();
  await db.schema.alterTable('crawl_pages').addColumn('noindex', 'integer', zero).execute();
  await db.schema.alterTable('crawl_pages').addColumn('description', 'text').execute();
  await db.schema.alterTable('crawl_pages').addColumn('canonical', 'text').execute();
  // 1: its canonical is a URL of the host that robots.txt disallows.
  await db.schema.alterTable('crawl_pages').addColumn('canonical_blocked', 'integer', zero).execute();
  await db.schema.alterTable('crawl_pages').addColumn('text_hash', 'text').execute();
  // JSON array of {lang, url}; null without alternates (most pages).
  await db.schema.alterTable('crawl_pages').addColumn('hreflang', 'text').execute();

  // The unvisited URLs of each reason, found without reading every waiting row (the dashboard's
  // "Limit reached" names the bounds hit).
  await sql`create index crawl_pages_reason_idx on crawl_pages (crawl_id, reason) where reason is not null`.execute(db);

  // One row per (page, target) of the host: the recorded links of every analysed page.
  let links = db.schema
    .createTable('crawl_links')
    .addColumn('crawl_id', idType, (column) => column.notNull().references('crawls.id').onDelete('cascade'))
    .addColumn('to_id', idType, (column) => column.notNull())
    .addColumn('from_id', idType, (column) => column.notNull())
    .addColumn('nofollow', 'integer', zero)
    .addPrimaryKeyConstraint('crawl_links_pk', ['crawl_id', 'to_id', 'from_id']);
  // The key is the row: no second copy of it in a rowid table (a link costs about 12 bytes).
  if (!isPostgres) links = links.modifyEnd(sql`without rowid`);
  await links.execute();
}

/** The facts of pages of crawls still under way move to the columns and links table; finished crawls keep their issues. */
async function moveFacts(db: Kysely<any>): Promise<void> {
  let after = 0;
  for (;;) {
    const rows: { id: number; crawl_id: number; facts: string }[] = await db
      .selectFrom('crawl_pages')
      .innerJoin('crawls', 'crawls.id', 'crawl_pages.crawl_id')
      .select(['crawl_pages.id', 'crawl_pages.crawl_id', 'crawl_pages.facts'])
      .where('crawls.state', 'in', ['queued', 'running'])
      .where('crawl_pages.facts', 'is not', null)
      .where('crawl_pages.id', '>', after)
      .orderBy('crawl_pages.id')
      .limit(BATCH)
      .execute();
    if (rows.length === 0) return;
    for (const row of rows) {
      const facts = JSON.parse(row.facts) as StoredFacts | null;
      if (facts === null) continue;
      await db
        .updateTable('crawl_pages')
        .set({
          html: 1,
          noindex: facts.noindex ? 1 : 0,
          description: facts.description ?? null,
          canonical: facts.canonical ?? null,
          text_hash: facts.textHash ?? null,
          hreflang: facts.hreflang && facts.hreflang.length > 0 ? JSON.stringify(facts.hreflang) : null,
        })
        .where('id', '=', row.id)
        .execute();
      const nofollow = new Set(facts.nofollow ?? []);
      const targets = [...new Set(facts.links ?? [])];
      for (let start = 0; start < targets.length; start += BATCH) {
        const known: { id: number; url: string }[] = await db
          .selectFrom('crawl_pages')
          .select(['id', 'url'])
          .where('crawl_id', '=', row.crawl_id)
          .where('url', 'in', targets.slice(start, start + BATCH))
          .execute();
        if (known.length === 0) continue;
        await db
          .insertInto('crawl_links')
          .values(known.map((target) => ({ crawl_id: row.crawl_id, to_id: target.id, from_id: row.id, nofollow: nofollow.has(target.url) ? 1 : 0 })))
          .onConflict((conflict: any) => conflict.doNothing())
          .execute();
      }
    }
    after = rows[rows.length - 1].id;
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  await inTransaction(db, async (trx) => {
    await trx.schema.alterTable('crawl_pages').addColumn('facts', 'text').execute();
    await trx.schema.dropTable('crawl_links').execute();
    await trx.schema.dropIndex('crawl_pages_reason_idx').execute();
    for (const column of ['hreflang', 'text_hash', 'canonical_blocked', 'canonical', 'description', 'noindex', 'html', 'links_dropped', 'redirects', 'reason']) {
      await trx.schema.alterTable('crawl_pages').dropColumn(column).execute();
    }
    for (const column of ['finishing_until', 'start_lease_until', 'limit_reached', 'pages_unstored', 'pages_visited', 'requests']) {
      await trx.schema.alterTable('crawls').dropColumn(column).execute();
    }
  });
}

/** PostgreSQL migrations already run in a transaction; SQLite's do not: all the columns come or none. */
async function inTransaction(db: Kysely<any>, work: (trx: Kysely<any>) => Promise<void>): Promise<void> {
  if (db.isTransaction) return work(db);
  await db.transaction().execute(work);
}
