// Webhooks: an account's endpoints with the events they want, and one row per delivery
// (one event sent to one endpoint, with every attempt counted on it). The secret is stored encrypted;
// a delivery keeps the exact body it signs, so every retry sends the same bytes.
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

  await db.schema
    .createTable('webhooks')
    .addColumn('id', idType, primaryId)
    .addColumn('user_id', idType, (column) => column.notNull().references('users.id').onDelete('cascade'))
    .addColumn('url', 'text', notNull)
    // comma-joined event names, e.g. "report.completed,report.failed"
    .addColumn('events', text, notNull)
    // "v1.<iv>.<ciphertext>.<tag>" under PAGEGRADE_SECRET_KEY; the plain secret is never stored
    .addColumn('secret_encrypted', 'text', notNull)
    .addColumn('created_at', text, notNull)
    .execute();
  await db.schema.createIndex('webhooks_user_id_idx').on('webhooks').columns(['user_id', 'id']).execute();

  await db.schema
    .createTable('webhook_deliveries')
    // "msg_..." : the webhook-id header, the same on every attempt
    .addColumn('id', text, (column) => column.primaryKey())
    .addColumn('webhook_id', idType, (column) => column.notNull().references('webhooks.id').onDelete('cascade'))
    .addColumn('event', text, notNull)
    .addColumn('payload', 'text', notNull)
    .addColumn('attempts', 'integer', (column) => column.notNull().defaultTo(0))
    // pending | delivered | failed
    .addColumn('status', text, notNull)
    .addColumn('response_status', 'integer')
    .addColumn('last_error', 'text')
    .addColumn('created_at', text, notNull)
    .addColumn('delivered_at', text)
    .addCheckConstraint('webhook_deliveries_status_check', sql`status in ('pending', 'delivered', 'failed')`)
    .execute();
  // A webhook's recent deliveries, newest first (the deliveries list).
  await db.schema
    .createIndex('webhook_deliveries_webhook_created_idx')
    .on('webhook_deliveries')
    .columns(['webhook_id', 'created_at'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('webhook_deliveries').execute();
  await db.schema.dropTable('webhooks').execute();
}
