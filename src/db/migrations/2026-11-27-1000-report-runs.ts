// Every analysis kept: a report's successful analyses become runs, each with its own
// results, numbered from 1 per report (never reused, so reports count `last_run_number` as well as the
// `runs_count` they keep). The report row keeps the latest run's summary for lists, and its results
// now live in that run: report_results becomes each report's first run, then goes.
// Frozen: never import application code here.
//
// The copy moves every report's results (about 12 KB each) once: on SQLite a million reports take
// minutes and the file keeps the freed pages for later runs (VACUUM gives them back to the disk).
import { PostgresAdapter, sql, type ColumnDefinitionBuilder, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  const isPostgres = db.getExecutor().adapter instanceof PostgresAdapter;
  const text = isPostgres ? sql`text collate "C"` : sql`text`;
  const idType = isPostgres ? 'bigint' : 'integer';
  const notNull = (column: ColumnDefinitionBuilder) => column.notNull();
  await inTransaction(db, async (trx) => {
    await trx.schema
      .createTable('report_runs')
      .addColumn('id', idType, (column) =>
        isPostgres ? column.generatedByDefaultAsIdentity().primaryKey() : column.primaryKey().autoIncrement(),
      )
      .addColumn('report_id', idType, (column) => column.notNull().references('reports.id').onDelete('cascade'))
      .addColumn('number', 'integer', notNull)
      // create | regenerate | schedule | crawl
      .addColumn('trigger', text, notNull)
      .addColumn('result', text, notNull)
      .addColumn('score', 'integer', notNull)
      .addColumn('issues_high', 'integer', notNull)
      .addColumn('issues_medium', 'integer', notNull)
      .addColumn('issues_low', 'integer', notNull)
      .addColumn('page', 'text', notNull)
      .addColumn('results', 'text', notNull)
      .addColumn('generated_at', text, notNull)
      .addCheckConstraint('report_runs_trigger_check', sql`trigger in ('create', 'regenerate', 'schedule', 'crawl')`)
      .addCheckConstraint('report_runs_result_check', sql`result in ('good', 'decent', 'bad')`)
      .addUniqueConstraint('report_runs_report_number_unique', ['report_id', 'number'])
      .execute();
    await trx.schema.alterTable('reports').addColumn('runs_count', 'integer', (column) => column.notNull().defaultTo(0)).execute();
    await trx.schema.alterTable('reports').addColumn('last_run_number', 'integer', (column) => column.notNull().defaultTo(0)).execute();
    await sql`insert into report_runs (report_id, number, trigger, result, score, issues_high, issues_medium, issues_low, page, results, generated_at)
      select reports.id, 1, 'create', reports.result, reports.score, reports.issues_high, reports.issues_medium,
        reports.issues_low, reports.page, report_results.results, reports.generated_at
      from reports join report_results on report_results.report_id = reports.id
      order by reports.id`.execute(trx);
    await sql`update reports set runs_count = 1, last_run_number = 1 where result is not null`.execute(trx);
    await trx.schema.dropTable('report_results').execute();
  });
}

export async function down(db: Kysely<any>): Promise<void> {
  const isPostgres = db.getExecutor().adapter instanceof PostgresAdapter;
  await inTransaction(db, async (trx) => {
    await trx.schema
      .createTable('report_results')
      .addColumn('report_id', isPostgres ? 'bigint' : 'integer', (column) => column.primaryKey().references('reports.id').onDelete('cascade'))
      .addColumn('results', 'text', (column) => column.notNull())
      .execute();
    await sql`insert into report_results (report_id, results)
      select report_runs.report_id, report_runs.results from report_runs
      join reports on reports.id = report_runs.report_id and report_runs.number = reports.last_run_number`.execute(trx);
    await trx.schema.dropTable('report_runs').execute();
    await trx.schema.alterTable('reports').dropColumn('last_run_number').execute();
    await trx.schema.alterTable('reports').dropColumn('runs_count').execute();
  });
}

/** PostgreSQL migrations already run in a transaction; SQLite's do not, and this one moves data. */
async function inTransaction(db: Kysely<any>, work: (trx: Kysely<any>) => Promise<void>): Promise<void> {
  if (db.isTransaction) return work(db);
  await db.transaction().execute(work);
}
