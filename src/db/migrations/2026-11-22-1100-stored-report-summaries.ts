// Each report and project row keeps its list item as JSON text (`summary_json`), and each account a
// counter that moves whenever any count of its reports may change (`report_counts_version`). Frozen:
// never import application code here.
//
// Measured on 100,000 SQLite reports: reading a list page's 100 rows column by column cost 340 µs in
// better-sqlite3 (17 values per row), then each row's page JSON was parsed and the page serialised
// again; one ready-made text per row costs 70 µs and is sent as it is. A url search must look at every
// one of the account's reports to count its matches (1.3 ms at 10,000 reports); the counter lets the
// count be kept until the reports change.
//
// On SQLite an index (user_id, id, summary_json) holds an account's newest items side by side, so the
// default list reads a few index pages instead of a table page per item (140 -> 77 µs at 100,000
// reports). PostgreSQL gets no such index: a btree entry must fit in a third of a page, and an item
// with a long redirect chain can be larger.
import { PostgresAdapter, type Kysely } from 'kysely';

const BACKFILL_BATCH = 1_000;

const SUMMARY_INDEX = 'reports_user_id_summary_idx';

export async function up(db: Kysely<any>): Promise<void> {
  const isPostgres = db.getExecutor().adapter instanceof PostgresAdapter;
  await inTransaction(db, async (trx) => {
    // Adding a NOT NULL column needs a default for the rows already there; every row gets its value next.
    await trx.schema.alterTable('reports').addColumn('summary_json', 'text', (column) => column.notNull().defaultTo('')).execute();
    await trx.schema.alterTable('projects').addColumn('summary_json', 'text', (column) => column.notNull().defaultTo('')).execute();
    await trx.schema
      .alterTable('users')
      .addColumn('report_counts_version', 'integer', (column) => column.notNull().defaultTo(0))
      .execute();
    for (let after = 0; ; ) {
      const rows = await trx
        .selectFrom('reports')
        .select(['id', 'url', 'project', 'privacy', 'password_hash', 'result', 'score', 'issues_high', 'issues_medium', 'issues_low', 'page', 'generated_at', 'created_at', 'updated_at'])
        .where('id', '>', after)
        .orderBy('id')
        .limit(BACKFILL_BATCH)
        .execute();
      if (rows.length === 0) break;
      for (const row of rows) {
        await trx.updateTable('reports').set({ summary_json: summaryJson(row) }).where('id', '=', row.id).execute();
      }
      after = rows[rows.length - 1].id;
    }
    if (!isPostgres) {
      await trx.schema.createIndex(SUMMARY_INDEX).on('reports').columns(['user_id', 'id', 'summary_json']).execute();
    }
    const projects = await trx.selectFrom('projects').selectAll().execute();
    for (const project of projects) {
      await trx.updateTable('projects').set({ summary_json: projectJson(project) }).where('id', '=', project.id).execute();
    }
  });
}

export async function down(db: Kysely<any>): Promise<void> {
  await inTransaction(db, async (trx) => {
    await trx.schema.dropIndex(SUMMARY_INDEX).ifExists().execute();
    await trx.schema.alterTable('reports').dropColumn('summary_json').execute();
    await trx.schema.alterTable('projects').dropColumn('summary_json').execute();
    await trx.schema.alterTable('users').dropColumn('report_counts_version').execute();
  });
}

/** The API's report list item without its id, as the application wrote it when this migration was made. */
function summaryJson(row: any): string {
  return JSON.stringify({
    url: row.url,
    project: row.project,
    privacy: row.privacy,
    password: row.password_hash !== null,
    result: row.result,
    score: row.score,
    issues: { high: row.issues_high, medium: row.issues_medium, low: row.issues_low },
    page: JSON.parse(row.page),
    generated_at: row.generated_at,
    created_at: row.created_at,
    updated_at: row.updated_at,
  });
}

/** The API's project list item, as the application wrote it when this migration was made. */
function projectJson(row: any): string {
  return JSON.stringify({
    project: row.name,
    reports_count: row.reports_count,
    result_counts: { good: row.good_count, decent: row.decent_count, bad: row.bad_count },
    created_at: row.created_at,
    updated_at: row.updated_at,
  });
}

/** PostgreSQL migrations already run in a transaction; SQLite's do not, and this one moves data. */
async function inTransaction(db: Kysely<any>, work: (trx: Kysely<any>) => Promise<void>): Promise<void> {
  if (db.isTransaction) return work(db);
  await db.transaction().execute(work);
}
