// Schedules: a report may be analysed again on a schedule (`off`, `daily`, `weekly`,
// `monthly` or a 5-field cron expression in UTC); `next_run_at` is when it is due next, null when off.
// The scheduler looks for due reports by next_run_at, so only scheduled reports are in its index.
// Frozen: never import application code here.
import { PostgresAdapter, sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  const text = db.getExecutor().adapter instanceof PostgresAdapter ? sql`text collate "C"` : sql`text`;
  await db.schema.alterTable('reports').addColumn('schedule', text, (column) => column.notNull().defaultTo('off')).execute();
  await db.schema.alterTable('reports').addColumn('next_run_at', text).execute();
  await db.schema
    .createIndex('reports_next_run_at_idx')
    .on('reports')
    .column('next_run_at')
    .where(sql.ref('next_run_at'), 'is not', null)
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('reports_next_run_at_idx').execute();
  await db.schema.alterTable('reports').dropColumn('next_run_at').execute();
  await db.schema.alterTable('reports').dropColumn('schedule').execute();
}
