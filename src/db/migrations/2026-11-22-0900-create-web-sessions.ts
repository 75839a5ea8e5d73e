// Dashboard sessions: a random token's hash per signed-in browser. Frozen: never import application code here.
import { PostgresAdapter, sql, type ColumnDefinitionBuilder, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  const isPostgres = db.getExecutor().adapter instanceof PostgresAdapter;
  const text = isPostgres ? sql`text collate "C"` : sql`text`;
  const idType = isPostgres ? 'bigint' : 'integer';
  const primaryId = (column: ColumnDefinitionBuilder) =>
    isPostgres ? column.generatedByDefaultAsIdentity().primaryKey() : column.primaryKey().autoIncrement();
  const notNull = (column: ColumnDefinitionBuilder) => column.notNull();

  await db.schema
    .createTable('web_sessions')
    .addColumn('id', idType, primaryId)
    .addColumn('token_hash', text, (column) => column.notNull().unique())
    .addColumn('user_id', idType, (column) => column.notNull().references('users.id').onDelete('cascade'))
    .addColumn('api_key_id', idType, (column) => column.notNull().references('api_keys.id').onDelete('cascade'))
    .addColumn('created_at', text, notNull)
    .addColumn('expires_at', text, notNull)
    .execute();

  // Expired sessions are deleted by expires_at; a deleted key's sessions go by api_key_id (cascade).
  await db.schema.createIndex('web_sessions_expires_at_idx').on('web_sessions').column('expires_at').execute();
  await db.schema.createIndex('web_sessions_api_key_id_idx').on('web_sessions').column('api_key_id').execute();
  await db.schema.createIndex('web_sessions_user_id_idx').on('web_sessions').column('user_id').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('web_sessions').execute();
}
