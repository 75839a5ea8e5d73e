// Site audits (docs/crawls.md): a crawl, the frontier and facts of every URL it found (crawl_pages), and the
// site checks' findings once it ends (crawl_issues). The frontier lives here, not in memory, so a
// crawl of 10,000 pages holds the memory of one of 100 and resumes after a restart.
// Frozen: never import application code here.
import { PostgresAdapter, sql, type ColumnDefinitionBuilder, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  const isPostgres = db.getExecutor().adapter instanceof PostgresAdapter;
  // Code-point comparison on PostgreSQL too, as SQLite's BINARY does, whatever the database locale.
  const text = isPostgres ? sql`text collate "C"` : sql`text`;
  const idType = isPostgres ? 'bigint' : 'integer';
  const primaryId = (column: ColumnDefinitionBuilder) =>
    isPostgres ? column.generatedByDefaultAsIdentity().primaryKey() : column.primaryKey().autoIncrement();
  const notNull = (column: ColumnDefinitionBuilder) => column.notNull();
  const zero = (column: ColumnDefinitionBuilder) => column.notNull().defaultTo(0);

  await db.schema
    .createTable('crawls')
    .addColumn('id', idType, primaryId)
    .addColumn('user_id', idType, (column) => column.notNull().references('users.id').onDelete('cascade'))
    .addColumn('url', text, notNull)
    .addColumn('project', text, notNull)
    // queued | running | done | failed | cancelled
    .addColumn('state', text, notNull)
    .addColumn('max_pages', 'integer', notNull)
    .addColumn('max_depth', 'integer', notNull)
    .addColumn('use_sitemap', 'integer', notNull)
    .addColumn('privacy', 'integer', notNull)
    .addColumn('render', 'integer', notNull)
    .addColumn('pages_found', 'integer', zero)
    .addColumn('pages_crawled', 'integer', zero)
    .addColumn('pages_failed', 'integer', zero)
    .addColumn('score', 'integer')
    .addColumn('result', text)
    .addColumn('issues_high', 'integer', zero)
    .addColumn('issues_medium', 'integer', zero)
    .addColumn('issues_low', 'integer', zero)
    // the Crawl-delay of the robots.txt read when the crawl started
    .addColumn('crawl_delay_ms', 'integer', zero)
    // JSON of what the page checks need from the origin (robots.txt, 404 probe, favicon, ...), read once
    // when the crawl starts and used for every page; its robots.txt is also what the crawl obeys
    .addColumn('origin_facts', 'text')
    .addColumn('error', 'text')
    .addColumn('created_at', text, notNull)
    .addColumn('started_at', text)
    .addColumn('finished_at', text)
    .addCheckConstraint('crawls_state_check', sql`state in ('queued', 'running', 'done', 'failed', 'cancelled')`)
    .execute();
  await db.schema.createIndex('crawls_user_id_idx').on('crawls').columns(['user_id', 'id']).execute();

  await db.schema
    .createTable('crawl_pages')
    .addColumn('id', idType, primaryId)
    .addColumn('crawl_id', idType, (column) => column.notNull().references('crawls.id').onDelete('cascade'))
    .addColumn('url', text, notNull)
    // pending (to fetch; never claimed past max_depth, nor without a depth unless seeded) | fetching
    // (claimed) | done | blocked (a sitemap URL robots.txt disallows: never fetched, but the
    // sitemap_entries check names it)
    .addColumn('state', text, notNull)
    .addColumn('depth', 'integer')
    .addColumn('in_sitemap', 'integer', zero)
    // 1: fetched even without a click depth (a sitemap URL, or where one redirects)
    .addColumn('seeded', 'integer', zero)
    .addColumn('lease_until', text)
    .addColumn('attempts', 'integer', zero)
    .addColumn('status_code', 'integer')
    .addColumn('redirect_target', 'text')
    .addColumn('content_type', 'text')
    .addColumn('error', 'text')
    .addColumn('title', 'text')
    .addColumn('report_id', idType, (column) => column.references('reports.id').onDelete('set null'))
    .addColumn('score', 'integer')
    .addColumn('result', text)
    .addColumn('inlinks', 'integer', zero)
    // JSON of the facts site checks need (noindex, canonical, description, text hash, hreflang, links)
    .addColumn('facts', 'text')
    .addCheckConstraint('crawl_pages_state_check', sql`state in ('pending', 'fetching', 'done', 'blocked')`)
    .execute();
  await db.schema.createIndex('crawl_pages_crawl_url_idx').unique().on('crawl_pages').columns(['crawl_id', 'url']).execute();
  // The next page to claim: breadth first, in order of discovery.
  await db.schema.createIndex('crawl_pages_claim_idx').on('crawl_pages').columns(['crawl_id', 'state', 'depth', 'id']).execute();

  // Politeness per host, across every crawl of it and every process: no request before next_fetch_at
  // (Crawl-delay, Retry-After); the row is also what claims on the host take turns on.
  await db.schema
    .createTable('crawl_hosts')
    .addColumn('host', text, (column) => column.primaryKey())
    .addColumn('next_fetch_at', text, notNull)
    .execute();
  // Pages being fetched, per crawl (a host's are counted over its running crawls).
  await db.schema.createIndex('crawls_project_state_idx').on('crawls').columns(['project', 'state']).execute();

  await db.schema
    .createTable('crawl_issues')
    .addColumn('crawl_id', idType, (column) => column.notNull().references('crawls.id').onDelete('cascade'))
    .addColumn('check_id', text, notNull)
    .addColumn('importance', text, notNull)
    .addColumn('count', 'integer', notNull)
    // JSON array of the first findings
    .addColumn('items', 'text', notNull)
    .addPrimaryKeyConstraint('crawl_issues_pk', ['crawl_id', 'check_id'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('crawl_issues').execute();
  await db.schema.dropTable('crawl_hosts').execute();
  await db.schema.dropTable('crawl_pages').execute();
  await db.schema.dropTable('crawls').execute();
}
