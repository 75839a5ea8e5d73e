// Reports and the per-host projects that summarise them. Frozen: never import application code here.
import { PostgresAdapter, sql, type ColumnDefinitionBuilder, type Kysely } from 'kysely';

/**
 * Every list query of the API is `user_id = ?` plus optional equality filters (project; result, which
 * the repository filters through result_rank), ordered by one key then id. One index per
 * (filter prefix, sort key) lets each page be read in index order instead of sorting a million rows.
 * (user_id, result_rank, id) serves both the result filter sorted by id and the sort by result.
 */
const REPORT_INDEXES: Record<string, string[]> = {
  reports_user_id_idx: ['user_id', 'id'],
  reports_user_generated_at_idx: ['user_id', 'generated_at', 'id'],
  reports_user_url_idx: ['user_id', 'url', 'id'],
  reports_user_rank_idx: ['user_id', 'result_rank', 'id'],
  reports_user_rank_generated_at_idx: ['user_id', 'result_rank', 'generated_at', 'id'],
  reports_user_rank_url_idx: ['user_id', 'result_rank', 'url', 'id'],
  reports_user_project_idx: ['user_id', 'project', 'id'],
  reports_user_project_generated_at_idx: ['user_id', 'project', 'generated_at', 'id'],
  reports_user_project_url_idx: ['user_id', 'project', 'url', 'id'],
  reports_user_project_rank_idx: ['user_id', 'project', 'result_rank', 'id'],
  reports_user_project_rank_generated_at_idx: ['user_id', 'project', 'result_rank', 'generated_at', 'id'],
  reports_user_project_rank_url_idx: ['user_id', 'project', 'result_rank', 'url', 'id'],
};

export async function up(db: Kysely<any>): Promise<void> {
  const isPostgres = db.getExecutor().adapter instanceof PostgresAdapter;
  // Code-point comparison on PostgreSQL too, as SQLite's BINARY does, whatever the database locale.
  const text = isPostgres ? sql`text collate "C"` : sql`text`;
  const idType = isPostgres ? 'bigint' : 'integer';
  const primaryId = (column: ColumnDefinitionBuilder) =>
    isPostgres ? column.generatedByDefaultAsIdentity().primaryKey() : column.primaryKey().autoIncrement();
  const notNull = (column: ColumnDefinitionBuilder) => column.notNull();

  await db.schema
    .createTable('reports')
    .addColumn('id', idType, primaryId)
    .addColumn('user_id', idType, (column) => column.notNull().references('users.id').onDelete('cascade'))
    .addColumn('url', text, notNull)
    .addColumn('url_lower', text, notNull)
    .addColumn('project', text, notNull)
    .addColumn('privacy', 'integer', notNull)
    .addColumn('password_hash', text)
    .addColumn('result', text, notNull)
    .addColumn('result_rank', 'integer', notNull)
    .addColumn('score', 'integer', notNull)
    .addColumn('issues_high', 'integer', notNull)
    .addColumn('issues_medium', 'integer', notNull)
    .addColumn('issues_low', 'integer', notNull)
    .addColumn('page', text, notNull)
    .addColumn('results', text, notNull)
    .addColumn('generated_at', text, notNull)
    .addColumn('created_at', text, notNull)
    .addColumn('updated_at', text, notNull)
    .addCheckConstraint('reports_privacy_check', sql`privacy in (0, 1, 2)`)
    .addCheckConstraint('reports_score_check', sql`score between 0 and 100`)
    .addCheckConstraint(
      'reports_result_rank_check',
      sql`(result = 'bad' and result_rank = 0) or (result = 'decent' and result_rank = 1)
          or (result = 'good' and result_rank = 2)`,
    )
    .execute();

  for (const [name, columns] of Object.entries(REPORT_INDEXES)) {
    await db.schema.createIndex(name).on('reports').columns(columns).execute();
  }
  if (isPostgres) await createUrlTrigramIndex(db);

  await db.schema
    .createTable('projects')
    .addColumn('id', idType, primaryId)
    .addColumn('user_id', idType, (column) => column.notNull().references('users.id').onDelete('cascade'))
    .addColumn('name', text, notNull)
    .addColumn('name_lower', text, notNull)
    .addColumn('reports_count', 'integer', notNull)
    .addColumn('good_count', 'integer', notNull)
    .addColumn('decent_count', 'integer', notNull)
    .addColumn('bad_count', 'integer', notNull)
    .addColumn('created_at', text, notNull)
    .addColumn('updated_at', text, notNull)
    .addUniqueConstraint('projects_user_id_name_unique', ['user_id', 'name'])
    .addCheckConstraint(
      'projects_counts_check',
      sql`reports_count >= 0 and good_count >= 0 and decent_count >= 0 and bad_count >= 0
          and reports_count = good_count + decent_count + bad_count`,
    )
    .execute();

  await db.schema
    .createIndex('projects_user_created_at_idx')
    .on('projects')
    .columns(['user_id', 'created_at', 'id'])
    .execute();
}

/**
 * `url_lower LIKE '%term%'` can use a trigram index on PostgreSQL. Creating the extension needs a
 * privilege the service's role may lack; search then still works (over the owner's rows) without it.
 */
async function createUrlTrigramIndex(db: Kysely<any>): Promise<void> {
  let schema = await trigramSchema(db);
  if (schema === null) {
    try {
      await withSavepoint(db, 'create_pg_trgm', () => sql`create extension if not exists pg_trgm`.execute(db));
    } catch (error) {
      console.warn(`pg_trgm is unavailable (${(error as Error).message}); url search will not use a trigram index.`);
      return;
    }
    schema = await trigramSchema(db);
    if (schema === null) return;
  }
  // Qualify the operator class: the extension may live in a schema that is not first on search_path.
  const operatorClass = sql`${sql.id(schema)}.gin_trgm_ops`;
  await sql`create index reports_url_lower_trgm_idx on reports using gin (url_lower ${operatorClass})`.execute(db);
}

async function trigramSchema(db: Kysely<any>): Promise<string | null> {
  const { rows } = await sql<{ schema: string }>`
    select n.nspname as schema from pg_extension e join pg_namespace n on n.oid = e.extnamespace
    where e.extname = 'pg_trgm'`.execute(db);
  return rows[0]?.schema ?? null;
}

/** A failed statement aborts a PostgreSQL transaction; a savepoint keeps the migration alive. */
async function withSavepoint(db: Kysely<any>, name: string, run: () => Promise<unknown>): Promise<void> {
  if (!db.isTransaction) {
    await run();
    return;
  }
  await sql`savepoint ${sql.id(name)}`.execute(db);
  try {
    await run();
  } catch (error) {
    await sql`rollback to savepoint ${sql.id(name)}`.execute(db);
    throw error;
  }
  await sql`release savepoint ${sql.id(name)}`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('projects').execute();
  await db.schema.dropTable('reports').execute();
}
