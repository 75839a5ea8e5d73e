// Lists are read as plain rows again (issue "One door for reads"): the stored list items
// (reports.summary_json, projects.summary_json), the SQLite indexes that carried them, and the
// account's reports_version that keyed kept answers all go. The narrow indexes stay: (user_id, id,
// url_lower) serves the default list, and every sort and filter index ends in url_lower.
// Frozen: never import application code here.
import { PostgresAdapter, SqliteAdapter, type Kysely } from 'kysely';

/** SQLite only (PostgreSQL never had them: a btree entry must fit in a third of a page). */
const SUMMARY_INDEXES: Record<string, string[]> = {
  reports_user_id_summary_idx: ['user_id', 'id', 'summary_json'],
  reports_user_project_summary_idx: ['user_id', 'project', 'id', 'summary_json'],
  reports_user_project_rank_url_summary_idx: ['user_id', 'project', 'result_rank', 'url', 'id', 'summary_json'],
};

export async function up(db: Kysely<any>): Promise<void> {
  const isSqlite = db.getExecutor().adapter instanceof SqliteAdapter;
  await inTransaction(db, async (trx) => {
    if (isSqlite) for (const name of Object.keys(SUMMARY_INDEXES)) await trx.schema.dropIndex(name).ifExists().execute();
    await trx.schema.alterTable('reports').dropColumn('summary_json').execute();
    await trx.schema.alterTable('projects').dropColumn('summary_json').execute();
    await trx.schema.alterTable('users').dropColumn('reports_version').execute();
  });
}

export async function down(db: Kysely<any>): Promise<void> {
  const isPostgres = db.getExecutor().adapter instanceof PostgresAdapter;
  await inTransaction(db, async (trx) => {
    await trx.schema.alterTable('users').addColumn('reports_version', 'integer', (c) => c.notNull().defaultTo(0)).execute();
    await trx.schema.alterTable('reports').addColumn('summary_json', 'text', (c) => c.notNull().defaultTo('')).execute();
    await trx.schema.alterTable('projects').addColumn('summary_json', 'text', (c) => c.notNull().defaultTo('')).execute();
    await backfillSummaries(trx);
    if (!isPostgres) {
      for (const [name, columns] of Object.entries(SUMMARY_INDEXES)) {
        await trx.schema.createIndex(name).on('reports').columns(columns).execute();
      }
    }
  });
}

/** The list items as the application wrote them before this migration, so the older code reads them. */
async function backfillSummaries(db: Kysely<any>): Promise<void> {
  for (let after = 0; ; ) {
    const rows = await db.selectFrom('reports').selectAll().where('id', '>', after).orderBy('id').limit(1_000).execute();
    if (rows.length === 0) break;
    for (const row of rows) {
      const summary = {
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
      };
      await db.updateTable('reports').set({ summary_json: JSON.stringify(summary) }).where('id', '=', row.id).execute();
    }
    after = rows[rows.length - 1].id;
  }
  for (const row of await db.selectFrom('projects').selectAll().execute()) {
    const summary = {
      project: row.name,
      reports_count: row.reports_count,
      result_counts: { good: row.good_count, decent: row.decent_count, bad: row.bad_count },
      created_at: row.created_at,
      updated_at: row.updated_at,
    };
    await db.updateTable('projects').set({ summary_json: JSON.stringify(summary) }).where('id', '=', row.id).execute();
  }
}

/** PostgreSQL migrations already run in a transaction; SQLite's do not. */
async function inTransaction(db: Kysely<any>, work: (trx: Kysely<any>) => Promise<void>): Promise<void> {
  if (db.isTransaction) return work(db);
  await db.transaction().execute(work);
}
