// Lab audits (docs/lab.md): each run keeps the report's `lab` as JSON text (null for a run without a
// lab audit, every run before this one, and for one whose audit could not observe the page) and the
// profile its lab audit was asked under (null: none was), which a scheduled run repeats. A report
// keeps the profile of the lab audit its queued analysis makes, as it keeps job_render, for the job
// queued again when the queue lost it. Frozen: never import application code here.
import { sql, type Kysely } from 'kysely';

const profileCheck = (column: string) => sql`${sql.ref(column)} in ('mobile', 'desktop')`;

export async function up(db: Kysely<any>): Promise<void> {
  await inTransaction(db, async (trx) => {
    await trx.schema.alterTable('report_runs').addColumn('lab', 'text').execute();
    await trx.schema.alterTable('report_runs').addColumn('lab_profile', 'text', (column) => column.check(profileCheck('lab_profile'))).execute();
    await trx.schema.alterTable('reports').addColumn('job_lab', 'text', (column) => column.check(profileCheck('job_lab'))).execute();
  });
}

export async function down(db: Kysely<any>): Promise<void> {
  await inTransaction(db, async (trx) => {
    await trx.schema.alterTable('reports').dropColumn('job_lab').execute();
    await trx.schema.alterTable('report_runs').dropColumn('lab_profile').execute();
    await trx.schema.alterTable('report_runs').dropColumn('lab').execute();
  });
}

/** PostgreSQL migrations already run in a transaction; SQLite's do not: all the columns come or none. */
async function inTransaction(db: Kysely<any>, work: (trx: Kysely<any>) => Promise<void>): Promise<void> {
  if (db.isTransaction) return work(db);
  await db.transaction().execute(work);
}
