// Before the read benchmark measures a query, the reports table and its indexes (about 1.3 GB at a
// million reports) are read, as a server that has been running has them in memory. Report results
// (about 14 GB) are left cold: `show` reads them from wherever the operating system has them.
// Read again before every query, not once: this benchmark's machines (Firecracker guests) page out
// file cache that nothing has touched for a minute (DAMON), so what one warm-up read would be gone
// by the third query, which on a machine that keeps its file cache it would not be.
import SqliteDatabase from 'better-sqlite3';
import pg from 'pg';
import type { DialectName } from '../src/db/database.ts';

export async function warmReportTables(dialect: DialectName, databaseUrl: string): Promise<void> {
  switch (dialect) {
    case 'sqlite':
      return warmSqlite(databaseUrl.slice('sqlite:'.length));
    case 'postgres':
      return warmPostgres(databaseUrl);
    default:
      throw new Error(`unknown dialect ${JSON.stringify(dialect satisfies never)}`);
  }
}

function warmSqlite(filename: string): void {
  const db = new SqliteDatabase(filename, { readonly: true });
  try {
    db.prepare('select sum(length(page)) from reports').get();
    const indexes = db.prepare(`select name from sqlite_master where type = 'index' and tbl_name = 'reports' and sql is not null`).all();
    // A count through each index reads all of it.
    for (const { name } of indexes as { name: string }[]) db.prepare(`select count(*) from reports indexed by "${name}"`).get();
  } finally {
    db.close();
  }
}

/** pg_prewarm ships with PostgreSQL; like pg_trgm for the tests, it is made once in public. */
async function warmPostgres(databaseUrl: string): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query('create extension if not exists pg_prewarm schema public');
    await client.query(
      `select public.pg_prewarm(c.oid::regclass, 'read') from pg_class c
       where c.oid = 'reports'::regclass or c.oid in (select indexrelid from pg_index where indrelid = 'reports'::regclass)`,
    );
  } finally {
    await client.end();
  }
}
