// Jobs the queue lost (docs/production.md, "When the queue loses jobs"). A report and a crawl say which
// generation of queue jobs is theirs now, so a process can ask the queue whether it still holds them
// by their ids, made from the generation; a report also keeps what its lost job needs to be queued
// again (the trigger, render, and which attempt it is). The embedded queue's jobs get such an id
// (`key`), unique, so that adding one it holds adds nothing. Frozen: never import application code here.
import { PostgresAdapter, sql, type Kysely } from 'kysely';

/** The sweep reads the reports still being analysed, the longest unchanged first, and no others. */
const IN_PROGRESS_INDEX = 'reports_in_progress_updated_idx';

export async function up(db: Kysely<any>): Promise<void> {
  await inTransaction(db, (trx) => addColumns(trx));
}

async function addColumns(db: Kysely<any>): Promise<void> {
  const isPostgres = db.getExecutor().adapter instanceof PostgresAdapter;
  const text = isPostgres ? sql`text collate "C"` : sql`text`;
  await db.schema.alterTable('jobs').addColumn('key', text).execute();
  await db.schema.createIndex('jobs_key_idx').on('jobs').column('key').unique().execute();

  // 0: queued before generations existed (or never queued); each analysis asked for counts one up.
  await db.schema.alterTable('reports').addColumn('job_generation', 'integer', (column) => column.notNull().defaultTo(0)).execute();
  // 1 for the analysis asked for, one more for each time it was queued again after its job was lost.
  await db.schema.alterTable('reports').addColumn('job_attempt', 'integer', (column) => column.notNull().defaultTo(0)).execute();
  await db.schema.alterTable('reports').addColumn('job_trigger', text).execute();
  await db.schema.alterTable('reports').addColumn('job_render', 'integer', (column) => column.notNull().defaultTo(0)).execute();
  await sql`create index ${sql.id(IN_PROGRESS_INDEX)} on reports (updated_at, id) where state in ('queued', 'running')`.execute(db);

  await db.schema.alterTable('crawls').addColumn('job_generation', 'integer', (column) => column.notNull().defaultTo(0)).execute();
  // When the current generation's jobs were queued (null: when the crawl was made).
  await db.schema.alterTable('crawls').addColumn('jobs_queued_at', text).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await inTransaction(db, (trx) => dropColumns(trx));
}

async function dropColumns(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('crawls').dropColumn('jobs_queued_at').execute();
  await db.schema.alterTable('crawls').dropColumn('job_generation').execute();
  await db.schema.dropIndex(IN_PROGRESS_INDEX).execute();
  for (const column of ['job_render', 'job_trigger', 'job_attempt', 'job_generation']) {
    await db.schema.alterTable('reports').dropColumn(column).execute();
  }
  await db.schema.dropIndex('jobs_key_idx').execute();
  await db.schema.alterTable('jobs').dropColumn('key').execute();
}

/** PostgreSQL migrations already run in a transaction; SQLite's do not: all the columns come or none. */
async function inTransaction(db: Kysely<any>, work: (trx: Kysely<any>) => Promise<void>): Promise<void> {
  if (db.isTransaction) return work(db);
  await db.transaction().execute(work);
}
