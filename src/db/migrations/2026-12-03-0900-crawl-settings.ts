// Crawls of real sites (docs/crawls.md): the settings a crawl is made with (scope, request headers
// kept encrypted, user agent, list mode, external link checks, a schedule) and the external URLs its
// pages link to, each checked once, in tables of their own so that the frontier's rows, bounds and
// site checks stay about the crawled host. Frozen: never import application code here.
import { PostgresAdapter, sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await inTransaction(db, async (trx) => {
    const isPostgres = trx.getExecutor().adapter instanceof PostgresAdapter;
    const text = isPostgres ? sql`text collate "C"` : sql`text`;
    const idType = isPostgres ? 'bigint' : 'integer';
    const primaryId = (column: any) => (isPostgres ? column.generatedByDefaultAsIdentity().primaryKey() : column.primaryKey().autoIncrement());
    const zero = (column: any) => column.notNull().defaultTo(0);
    const crawls = (name: string, type: any, build?: (column: any) => any) => trx.schema.alterTable('crawls').addColumn(name, type, build).execute();

    // spider (links followed from url) | list (exactly the URLs given in urls)
    await crawls('mode', 'text', (column) => column.notNull().defaultTo('spider'));
    // list mode's URLs, a JSON array (at most max_pages of them); null for a spider crawl
    await crawls('urls', 'text');
    // create | schedule; a scheduled crawl's previous_crawl_id is the crawl whose schedule it ran
    await crawls('trigger', 'text', (column) => column.notNull().defaultTo('create'));
    await crawls('previous_crawl_id', idType);
    // 1: links to other hosts are checked; how many distinct ones were
    await crawls('external', 'integer', (column) => column.notNull().defaultTo(1));
    await crawls('external_checked', 'integer', zero);
    // JSON arrays of strings, as normalised
    await crawls('include', 'text', (column) => column.notNull().defaultTo('[]'));
    await crawls('exclude', 'text', (column) => column.notNull().defaultTo('[]'));
    await crawls('strip_params', 'text', (column) => column.notNull().defaultTo('[]'));
    // the request headers' names as given (JSON array), and the headers themselves sealed with
    // PAGEGRADE_SECRET_KEY (null without headers): never stored in the clear
    await crawls('header_names', 'text', (column) => column.notNull().defaultTo('[]'));
    await crawls('headers_sealed', 'text');
    // default | desktop | mobile | googlebot_smartphone | googlebot_desktop
    await crawls('user_agent', 'text', (column) => column.notNull().defaultTo('default'));
    // off | daily | weekly | monthly | a cron expression; next_run_at: when it runs next (null: off)
    await crawls('schedule', 'text', (column) => column.notNull().defaultTo('off'));
    await crawls('next_run_at', text);
    await sql`create index crawls_next_run_idx on crawls (next_run_at) where next_run_at is not null`.execute(trx);

    // The external URLs the crawl's pages link to: pending (to check) | checking (claimed) | done;
    // reason 'limit': past PAGEGRADE_CRAWL_MAX_EXTERNAL, stored unchecked.
    await trx.schema
      .createTable('crawl_externals')
      .addColumn('id', idType, primaryId)
      .addColumn('crawl_id', idType, (column) => column.notNull().references('crawls.id').onDelete('cascade'))
      .addColumn('url', text, (column) => column.notNull())
      // URL.host (with :port): the politeness of link checks is per external host
      .addColumn('host', text, (column) => column.notNull())
      .addColumn('state', 'text', (column) => column.notNull())
      .addColumn('lease_until', text)
      .addColumn('attempts', 'integer', zero)
      .addColumn('reason', 'text')
      // the final answer's status after redirects (null: unreachable or unchecked)
      .addColumn('status_code', 'integer')
      .addColumn('redirect_target', 'text')
      .addColumn('content_type', 'text')
      .addColumn('error', 'text')
      .addUniqueConstraint('crawl_externals_url_unique', ['crawl_id', 'url'])
      .execute();
    await sql`create index crawl_externals_pending_idx on crawl_externals (crawl_id, state) where state <> 'done'`.execute(trx);

    // One row per (page, external target): who links where.
    let links = trx.schema
      .createTable('crawl_external_links')
      .addColumn('crawl_id', idType, (column) => column.notNull().references('crawls.id').onDelete('cascade'))
      .addColumn('to_id', idType, (column) => column.notNull())
      .addColumn('from_id', idType, (column) => column.notNull())
      .addPrimaryKeyConstraint('crawl_external_links_pk', ['crawl_id', 'to_id', 'from_id']);
    if (!isPostgres) links = links.modifyEnd(sql`without rowid`);
    await links.execute();
  });
}

export async function down(db: Kysely<any>): Promise<void> {
  await inTransaction(db, async (trx) => {
    await trx.schema.dropTable('crawl_external_links').execute();
    await trx.schema.dropTable('crawl_externals').execute();
    await trx.schema.dropIndex('crawls_next_run_idx').execute();
    const columns = ['next_run_at', 'schedule', 'user_agent', 'headers_sealed', 'header_names', 'strip_params', 'exclude', 'include', 'external_checked', 'external', 'previous_crawl_id', 'trigger', 'urls', 'mode'];
    for (const column of columns) await trx.schema.alterTable('crawls').dropColumn(column).execute();
  });
}

/** PostgreSQL migrations already run in a transaction; SQLite's do not: all the columns come or none. */
async function inTransaction(db: Kysely<any>, work: (trx: Kysely<any>) => Promise<void>): Promise<void> {
  if (db.isTransaction) return work(db);
  await db.transaction().execute(work);
}
