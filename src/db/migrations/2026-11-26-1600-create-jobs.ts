// Background jobs of the embedded queue: one row per job that is waiting, running or has
// failed for good; a job that succeeds is deleted. A running job holds a lease its process renews, so
// a job whose process died is found by its expired lease and run again.
// Frozen: never import application code here.
import { PostgresAdapter, sql, type ColumnDefinitionBuilder, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  const isPostgres = db.getExecutor().adapter instanceof PostgresAdapter;
  const text = isPostgres ? sql`text collate "C"` : sql`text`;
  const idType = isPostgres ? 'bigint' : 'integer';
  const primaryId = (column: ColumnDefinitionBuilder) =>
    isPostgres ? column.generatedByDefaultAsIdentity().primaryKey() : column.primaryKey().autoIncrement();
  const notNull = (column: ColumnDefinitionBuilder) => column.notNull();

  await db.schema
    .createTable('jobs')
    .addColumn('id', idType, primaryId)
    .addColumn('kind', text, notNull)
    .addColumn('payload', 'text', notNull)
    // queued | running | failed
    .addColumn('state', text, notNull)
    .addColumn('attempts', 'integer', (column) => column.notNull().defaultTo(0))
    // ISO-8601 UTC, like every time in this database: a queued job waits until then (retry backoff)
    .addColumn('run_at', text, notNull)
    .addColumn('lease_token', text)
    .addColumn('lease_expires_at', text)
    .addColumn('last_error', 'text')
    .addColumn('created_at', text, notNull)
    .addColumn('updated_at', text, notNull)
    .execute();

  // The two ways a job becomes runnable: queued and due, or running with a lease that ran out.
  await db.schema.createIndex('jobs_state_run_at_idx').on('jobs').columns(['state', 'run_at']).execute();
  await db.schema.createIndex('jobs_state_lease_idx').on('jobs').columns(['state', 'lease_expires_at']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('jobs').execute();
}
