// What a migration test reads back: the columns a table has now, on either dialect.
import { sql, type Kysely } from 'kysely';
import type { DialectName } from '../../src/db/database.ts';

export async function tableColumns(db: Kysely<any>, dialect: DialectName, table: string): Promise<string[]> {
  const query =
    dialect === 'sqlite'
      ? sql<{ name: string }>`select name from pragma_table_info(${table})`
      : sql<{ name: string }>`select column_name as name from information_schema.columns
          where table_schema = current_schema() and table_name = ${table}`;
  return (await query.execute(db)).rows.map((row) => row.name);
}

/** An index's columns in key order, on either dialect ([] when there is no such index). */
export async function indexColumns(db: Kysely<any>, dialect: DialectName, index: string): Promise<string[]> {
  const query =
    dialect === 'sqlite'
      ? sql<{ name: string }>`select name from pragma_index_info(${index}) order by seqno`
      : sql<{ name: string }>`select a.attname as name
          from pg_index i
          join pg_class c on c.oid = i.indexrelid
          join pg_attribute a on a.attrelid = i.indrelid and a.attnum = any(i.indkey)
          where c.relname = ${index} and c.relnamespace = current_schema()::regnamespace
          order by array_position(i.indkey::int2[], a.attnum)`;
  return (await query.execute(db)).rows.map((row) => row.name);
}

/** SQLite's statistics tables (sqlite_stat1 and the like) that ANALYZE has made so far. */
export async function sqliteStatisticsTables(db: Kysely<any>): Promise<string[]> {
  const { rows } = await sql<{ name: string }>`select name from sqlite_master where name like 'sqlite_stat%'`.execute(db);
  return rows.map((row) => row.name);
}

/** The reports indexes SQLite holds statistics for. */
export async function sqliteAnalyzedIndexes(db: Kysely<any>): Promise<string[]> {
  const { rows } = await sql<{ idx: string }>`select idx from sqlite_stat1 where tbl = 'reports'`.execute(db);
  return rows.map((row) => row.idx);
}
