// Accounts and their API keys. Frozen: never import application code here.
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
    .createTable('users')
    .addColumn('id', idType, primaryId)
    .addColumn('email', text, (column) => column.notNull().unique())
    .addColumn('is_admin', 'integer', notNull)
    .addColumn('created_at', text, notNull)
    .addCheckConstraint('users_is_admin_check', sql`is_admin in (0, 1)`)
    .execute();

  await db.schema
    .createTable('api_keys')
    .addColumn('id', idType, primaryId)
    .addColumn('user_id', idType, (column) => column.notNull().references('users.id').onDelete('cascade'))
    .addColumn('key_hash', text, (column) => column.notNull().unique())
    .addColumn('key_prefix', text, notNull)
    .addColumn('label', text)
    .addColumn('created_at', text, notNull)
    .addColumn('last_used_at', text)
    .addColumn('revoked_at', text)
    .execute();

  await db.schema.createIndex('api_keys_user_id_idx').on('api_keys').columns(['user_id', 'id']).execute();
  await db.schema.createIndex('api_keys_key_prefix_idx').on('api_keys').column('key_prefix').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('api_keys').execute();
  await db.schema.dropTable('users').execute();
}
