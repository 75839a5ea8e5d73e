// Share links (docs/organisations.md, "Share links"): a token that opens one report or one crawl to
// anyone who has it, until it expires or is revoked. Only the token's SHA-256 is stored, with its first
// 8 characters to recognise it by. A link belongs to its organisation and dies with it, or with its
// report or crawl; the account that made it may go (its e-mail is kept, for the list).
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
    .createTable('share_links')
    .addColumn('id', idType, primaryId)
    .addColumn('organization_id', idType, (column) => column.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('report_id', idType, (column) => column.references('reports.id').onDelete('cascade'))
    .addColumn('crawl_id', idType, (column) => column.references('crawls.id').onDelete('cascade'))
    // SHA-256 hex of the token; the token itself is never stored
    .addColumn('token_hash', text, (column) => column.notNull().unique())
    // the token's first 8 characters
    .addColumn('prefix', text, notNull)
    // the account that made it; null once that account is deleted (the link stays the organisation's)
    .addColumn('created_by', idType, (column) => column.references('users.id').onDelete('set null'))
    .addColumn('created_by_email', text, notNull)
    .addColumn('created_at', text, notNull)
    .addColumn('expires_at', text, notNull)
    .addColumn('revoked_at', text)
    // One report or one crawl, never both, never neither.
    .addCheckConstraint('share_links_target_check', sql`(report_id is null) <> (crawl_id is null)`)
    .execute();
  // A report's or a crawl's links, newest first (the list), and what deleting one cascades to.
  await db.schema.createIndex('share_links_report_idx').on('share_links').columns(['report_id', 'id']).execute();
  await db.schema.createIndex('share_links_crawl_idx').on('share_links').columns(['crawl_id', 'id']).execute();
  // What deleting an organisation cascades to.
  await db.schema.createIndex('share_links_organization_idx').on('share_links').column('organization_id').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('share_links').execute();
}
