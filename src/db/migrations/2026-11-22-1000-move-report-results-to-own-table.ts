// Report results (about 12 KB of JSON each) move out of `reports` into a table of their own, and url
// search gets an index it can be answered from. Frozen: never import application code here.
//
// Measured on a million SQLite reports: a list page reads each listed row's generated_at, created_at
// and updated_at, which SQLite stores after `results` and so reaches only by walking the results'
// overflow pages: four page reads per listed row instead of one, and a 16 GB table for the page
// cache to hold (list with project and result filters: p99 320 ms). Without `results`, a report row
// is a few hundred bytes. A url search must test url_lower on every one of the account's reports to
// count them; (user_id, id, url_lower) lets that and the search page (newest first) read the index
// alone, and serves everything (user_id, id) served, which it replaces. On PostgreSQL the trigram
// index on url_lower goes: it matches a common term in every account (100,000 rows for "pricing" at a
// million reports), and the planner, combining it with the owner's index, took 90 ms for a search
// page that the per-account index answers in 3.
import { PostgresAdapter, sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  const isPostgres = db.getExecutor().adapter instanceof PostgresAdapter;
  await inTransaction(db, async (trx) => {
    await trx.schema
      .createTable('report_results')
      .addColumn('report_id', isPostgres ? 'bigint' : 'integer', (column) =>
        column.primaryKey().references('reports.id').onDelete('cascade'),
      )
      .addColumn('results', 'text', (column) => column.notNull())
      .execute();
    await sql`insert into report_results (report_id, results) select id, results from reports`.execute(trx);
    await trx.schema.alterTable('reports').dropColumn('results').execute();
    await trx.schema.createIndex('reports_user_id_url_lower_idx').on('reports').columns(['user_id', 'id', 'url_lower']).execute();
    await trx.schema.dropIndex('reports_user_id_idx').execute();
    if (isPostgres) await trx.schema.dropIndex(TRIGRAM_INDEX).ifExists().execute();
  });
}

export async function down(db: Kysely<any>): Promise<void> {
  const isPostgres = db.getExecutor().adapter instanceof PostgresAdapter;
  await inTransaction(db, async (trx) => {
    if (isPostgres) await restoreTrigramIndex(trx);
    await trx.schema.createIndex('reports_user_id_idx').on('reports').columns(['user_id', 'id']).execute();
    await trx.schema.dropIndex('reports_user_id_url_lower_idx').execute();
    // Adding a NOT NULL column needs a default for the rows already there; every row gets its value next.
    await trx.schema.alterTable('reports').addColumn('results', 'text', (column) => column.notNull().defaultTo('')).execute();
    await sql`update reports set results = (select results from report_results where report_results.report_id = reports.id)
      where exists (select 1 from report_results where report_results.report_id = reports.id)`.execute(trx);
    await trx.schema.dropTable('report_results').execute();
  });
}

const TRIGRAM_INDEX = 'reports_url_lower_trgm_idx';

/** As the earlier migration made it: only where the pg_trgm extension is installed. */
async function restoreTrigramIndex(db: Kysely<any>): Promise<void> {
  const { rows } = await sql<{ schema: string }>`
    select n.nspname as schema from pg_extension e join pg_namespace n on n.oid = e.extnamespace
    where e.extname = 'pg_trgm'`.execute(db);
  if (rows.length === 0) return;
  const operatorClass = sql`${sql.id(rows[0].schema)}.gin_trgm_ops`;
  await sql`create index ${sql.id(TRIGRAM_INDEX)} on reports using gin (url_lower ${operatorClass})`.execute(db);
}

/** PostgreSQL migrations already run in a transaction; SQLite's do not, and this one moves data. */
async function inTransaction(db: Kysely<any>, work: (trx: Kysely<any>) => Promise<void>): Promise<void> {
  if (db.isTransaction) return work(db);
  await db.transaction().execute(work);
}
