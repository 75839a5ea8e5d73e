// Lab audits of a crawl's pages (docs/lab.md, "Lab audits of a crawl"): the crawl keeps what it was
// asked for (lab_profile, null: no lab audits; lab_pages) and the summary of the audits made so far
// (lab_summary, JSON; null until the pages to audit are chosen, so it also says whether they were).
// Each analysed page remembers the number of the run its crawl made (run_number), which its lab audit
// joins. The chosen pages are rows of crawl_lab_pages, each claimed with a lease as a page is, so a
// crawl whose process dies mid-audit goes on with the pages not yet audited, and none twice.
// Frozen: never import application code here.
import { PostgresAdapter, sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await inTransaction(db, async (trx) => {
    const isPostgres = trx.getExecutor().adapter instanceof PostgresAdapter;
    const text = isPostgres ? sql`text collate "C"` : sql`text`;
    const idType = isPostgres ? 'bigint' : 'integer';
    const double = isPostgres ? 'double precision' : 'real';
    const crawls = (name: string, type: any, build?: (column: any) => any) => trx.schema.alterTable('crawls').addColumn(name, type, build).execute();

    await crawls('lab_profile', 'text', (column) => column.check(sql`lab_profile in ('mobile', 'desktop')`));
    await crawls('lab_pages', 'integer');
    await crawls('lab_summary', 'text');
    // Nullable, no default: instant on a table of millions of rows, on both dialects.
    await trx.schema.alterTable('crawl_pages').addColumn('run_number', 'integer').execute();

    await trx.schema
      .createTable('crawl_lab_pages')
      .addColumn('crawl_id', idType, (column) => column.notNull().references('crawls.id').onDelete('cascade'))
      // 0, 1, ...: the order of the round-robin pick, which is also the order of the audits
      .addColumn('pick', 'integer', (column) => column.notNull())
      .addColumn('page_id', idType, (column) => column.notNull().references('crawl_pages.id').onDelete('cascade'))
      .addColumn('url', text, (column) => column.notNull())
      // the URL template (/product/{n}) and its place in the order of the templates' first pages
      .addColumn('template', text, (column) => column.notNull())
      .addColumn('template_rank', 'integer', (column) => column.notNull())
      // the run the audit becomes part of
      .addColumn('report_id', idType, (column) => column.references('reports.id').onDelete('set null'))
      .addColumn('run_number', 'integer', (column) => column.notNull())
      // pending (to audit) | auditing (claimed until lease_until) | done
      .addColumn('state', 'text', (column) => column.notNull().defaultTo('pending'))
      .addColumn('lease_until', text)
      .addColumn('attempts', 'integer', (column) => column.notNull().defaultTo(0))
      // once done: 1 the audit observed the page, 0 it could not (error says why)
      .addColumn('audited', 'integer')
      .addColumn('error', 'text')
      .addColumn('lcp_ms', 'integer')
      .addColumn('cls', double)
      .addColumn('tbt_ms', 'integer')
      .addColumn('accessibility_score', 'integer')
      .addPrimaryKeyConstraint('crawl_lab_pages_pk', ['crawl_id', 'pick'])
      .addCheckConstraint('crawl_lab_pages_state_check', sql`state in ('pending', 'auditing', 'done')`)
      .execute();
  });
}

export async function down(db: Kysely<any>): Promise<void> {
  await inTransaction(db, async (trx) => {
    await trx.schema.dropTable('crawl_lab_pages').execute();
    await trx.schema.alterTable('crawl_pages').dropColumn('run_number').execute();
    for (const column of ['lab_summary', 'lab_pages', 'lab_profile']) await trx.schema.alterTable('crawls').dropColumn(column).execute();
  });
}

/** PostgreSQL migrations already run in a transaction; SQLite's do not: all the columns come or none. */
async function inTransaction(db: Kysely<any>, work: (trx: Kysely<any>) => Promise<void>): Promise<void> {
  if (db.isTransaction) return work(db);
  await db.transaction().execute(work);
}
