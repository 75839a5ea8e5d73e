// Organisations own what accounts owned (docs/organisations.md). Every existing account gets its
// personal organisation, with the account's id as its id, so reports, projects, crawls and webhooks
// keep their owner column's values: the column is renamed organization_id and points at
// organizations instead of users. Keys become scope write, not bound; dashboard sessions stay signed
// in, acting in the personal organisation. Frozen: never import application code here.
//
// SQLite cannot change a column's foreign key in place: the four tables are built again under the same
// name, with their rows, ids, autoincrement counter and indexes.
import { PostgresAdapter, sql, type ColumnDefinitionBuilder, type Kysely } from 'kysely';

const OWNED_TABLES = ['reports', 'projects', 'crawls', 'webhooks'];

export async function up(db: Kysely<any>): Promise<void> {
  const isPostgres = db.getExecutor().adapter instanceof PostgresAdapter;
  const text = isPostgres ? sql`text collate "C"` : sql`text`;
  const idType = isPostgres ? 'bigint' : 'integer';
  const primaryId = (column: ColumnDefinitionBuilder) =>
    isPostgres ? column.generatedByDefaultAsIdentity().primaryKey() : column.primaryKey().autoIncrement();

  await db.schema
    .createTable('organizations')
    .addColumn('id', idType, primaryId)
    .addColumn('name', text, (column) => column.notNull())
    // the account whose personal organisation this is; null for one made with POST /organizations
    .addColumn('personal_user_id', idType, (column) => column.unique().references('users.id').onDelete('cascade'))
    .addColumn('brand_name', text)
    .addColumn('brand_color', text)
    .addColumn('brand_logo_type', text)
    // base64 of the logo's bytes
    .addColumn('brand_logo', text)
    .addColumn('created_at', text, (column) => column.notNull())
    .addColumn('updated_at', text, (column) => column.notNull())
    .execute();

  await db.schema
    .createTable('organization_members')
    .addColumn('id', idType, primaryId)
    .addColumn('organization_id', idType, (column) => column.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('user_id', idType, (column) => column.notNull().references('users.id').onDelete('cascade'))
    .addColumn('role', text, (column) => column.notNull())
    .addColumn('added_at', text, (column) => column.notNull())
    .addUniqueConstraint('organization_members_unique', ['organization_id', 'user_id'])
    .addCheckConstraint('organization_members_role_check', sql`role in ('owner', 'admin', 'editor', 'viewer')`)
    .execute();
  await db.schema.createIndex('organization_members_user_idx').on('organization_members').columns(['user_id', 'organization_id']).execute();

  await sql`insert into organizations (id, name, personal_user_id, created_at, updated_at)
    select id, email, id, created_at, created_at from users`.execute(db);
  await sql`insert into organization_members (organization_id, user_id, role, added_at)
    select id, id, 'owner', created_at from users order by id`.execute(db);
  if (isPostgres) {
    await sql`select setval(pg_get_serial_sequence('organizations', 'id'), coalesce((select max(id) from organizations), 0) + 1, false)`.execute(db);
  }

  if (isPostgres) {
    for (const table of OWNED_TABLES) await repointPostgres(db, table, 'user_id', 'organization_id', 'organizations');
  } else {
    await rebuildSqlite(db, 'user_id', 'users', 'organization_id', 'organizations');
  }

  await db.schema.alterTable('api_keys').addColumn('scope', text, (column) => column.notNull().defaultTo('write')).execute();
  await db.schema
    .alterTable('api_keys')
    .addColumn('organization_id', idType, (column) => column.references('organizations.id').onDelete('cascade'))
    .execute();
  // the dashboard's current organisation; null: the personal one
  await db.schema
    .alterTable('web_sessions')
    .addColumn('organization_id', idType, (column) => column.references('organizations.id').onDelete('set null'))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  const isPostgres = db.getExecutor().adapter instanceof PostgresAdapter;
  // What the organisations that are not personal own has no account to go back to.
  for (const table of OWNED_TABLES) {
    await sql`delete from ${sql.id(table)} where organization_id not in (select id from organizations where personal_user_id is not null)`.execute(db);
  }
  await db.schema.alterTable('web_sessions').dropColumn('organization_id').execute();
  await db.schema.alterTable('api_keys').dropColumn('organization_id').execute();
  await db.schema.alterTable('api_keys').dropColumn('scope').execute();
  const toAccount = (table: string) => sql`update ${sql.id(table)} set organization_id =
    (select personal_user_id from organizations where organizations.id = ${sql.id(table)}.organization_id)`;
  if (isPostgres) {
    for (const table of OWNED_TABLES) {
      await sql`alter table ${sql.id(table)} drop constraint ${sql.id(`${table}_organization_id_fkey`)}`.execute(db);
      await toAccount(table).execute(db);
      await repointPostgres(db, table, 'organization_id', 'user_id', 'users', false);
    }
  } else {
    const { rows: pragma } = await sql<{ foreign_keys: number }>`pragma foreign_keys`.execute(db);
    await sql`pragma foreign_keys = off`.execute(db);
    try {
      for (const table of OWNED_TABLES) await toAccount(table).execute(db);
      await rebuildSqlite(db, 'organization_id', 'organizations', 'user_id', 'users');
    } finally {
      if (pragma[0]?.foreign_keys === 1) await sql`pragma foreign_keys = on`.execute(db);
    }
  }
  await db.schema.dropTable('organization_members').execute();
  await db.schema.dropTable('organizations').execute();
}

async function repointPostgres(db: Kysely<any>, table: string, from: string, to: string, toTable: string, dropOld = true): Promise<void> {
  if (dropOld) await sql`alter table ${sql.id(table)} drop constraint ${sql.id(`${table}_${from}_fkey`)}`.execute(db);
  await sql`alter table ${sql.id(table)} rename column ${sql.id(from)} to ${sql.id(to)}`.execute(db);
  await sql`alter table ${sql.id(table)} add constraint ${sql.id(`${table}_${to}_fkey`)}
    foreign key (${sql.id(to)}) references ${sql.id(toTable)} (id) on delete cascade`.execute(db);
}

/**
 * SQLite's way to change a table's columns (https://sqlite.org/lang_altertable.html, "other kinds of
 * table schema changes"): with foreign keys off (report_runs and others point at reports), in one
 * transaction, make each new table from the old one's own definition with the owner column renamed
 * and pointing elsewhere, copy the rows, drop the old, rename the new, make its indexes again, and
 * check no foreign key broke.
 */
async function rebuildSqlite(db: Kysely<any>, from: string, fromTable: string, to: string, toTable: string): Promise<void> {
  const { rows: pragma } = await sql<{ foreign_keys: number }>`pragma foreign_keys`.execute(db);
  await sql`pragma foreign_keys = off`.execute(db);
  const column = new RegExp(`"?\\b${from}\\b"?`, 'g');
  try {
    await db.transaction().execute(async (trx) => {
      for (const table of OWNED_TABLES) {
        const { rows } = await sql<{ type: string; name: string; sql: string }>`
          select type, name, sql from sqlite_master where tbl_name = ${table} and sql is not null`.execute(trx);
        const definition = rows.find((row) => row.type === 'table');
        if (!definition) throw new Error(`no table ${table}`);
        const created = definition.sql
          .replace(/^create table\s+("?)\w+\1/i, `create table "${table}_next"`)
          .replace(column, `"${to}"`)
          .replace(new RegExp(`references\\s+"?${fromTable}"?`, 'gi'), `references "${toTable}"`);
        await sql.raw(created).execute(trx);
        const { rows: sequence } = await sql<{ seq: number }>`select seq from sqlite_sequence where name = ${table}`.execute(trx);
        const { rows: columns } = await sql<{ name: string }>`select name from pragma_table_info(${table})`.execute(trx);
        const source = sql.join(columns.map((c) => sql.id(c.name)));
        const target = sql.join(columns.map((c) => sql.id(c.name === from ? to : c.name)));
        await sql`insert into ${sql.id(`${table}_next`)} (${target}) select ${source} from ${sql.id(table)}`.execute(trx);
        await sql`drop table ${sql.id(table)}`.execute(trx);
        await sql`alter table ${sql.id(`${table}_next`)} rename to ${sql.id(table)}`.execute(trx);
        for (const index of rows.filter((row) => row.type === 'index')) {
          await sql.raw(index.sql.replace(column, `"${to}"`)).execute(trx);
        }
        // The counter stays where it was, so an id deleted before the rebuild is never given out again.
        if (sequence.length > 0) {
          await sql`update sqlite_sequence set seq = max(seq, ${sequence[0].seq}) where name = ${table}`.execute(trx);
        }
      }
      const { rows: broken } = await sql`pragma foreign_key_check`.execute(trx);
      if (broken.length > 0) throw new Error(`moving owners broke ${broken.length} foreign keys`);
    });
  } finally {
    if (pragma[0]?.foreign_keys === 1) await sql`pragma foreign_keys = on`.execute(db);
  }
}
