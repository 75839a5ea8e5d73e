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
