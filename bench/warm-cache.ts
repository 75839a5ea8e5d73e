// Before each load of the read benchmark (the server's and its query floor's alike), the reports table
// and its indexes (about 1.3 GB at a million reports) are read, as a server that has been running has
// them in memory, and so are the results of the reports `show` asks for (100 an account, about 150 MB
// of the 14 GB): the server and its floor then start each load from the same cache, whichever ran
// first. Read again before every load, not once: this benchmark's machines (Firecracker guests) page
// out file cache that nothing has touched for a minute (DAMON), so what one warm-up read would be
// gone by the third query, which on a machine that keeps its file cache it would not be.
import SqliteDatabase from 'better-sqlite3';
import pg from 'pg';
import { parseDatabaseUrl } from '../src/db/database.ts';

export async function warmReportTables(databaseUrl: string, shownReportIds: readonly number[]): Promise<void> {
  const config = parseDatabaseUrl(databaseUrl);
  return config.dialect === 'sqlite'
    ? warmSqlite(config.filename, shownReportIds)
    : warmPostgres(config.connectionString, shownReportIds);
}

function warmSqlite(filename: string, shownReportIds: readonly number[]): void {
  const db = new SqliteDatabase(filename, { readonly: true });
  try {
    db.prepare('select sum(length(page)) from reports').get();
    const indexes = db.prepare(`select name from sqlite_master where type = 'index' and tbl_name = 'reports' and sql is not null`).all();
    // A count through each index reads all of it.
    for (const { name } of indexes as { name: string }[]) db.prepare(`select count(*) from reports indexed by "${name}"`).get();
    db.prepare('select sum(length(results)) from report_runs where report_id in (select value from json_each(?))').get(
      JSON.stringify(shownReportIds),
    );
  } finally {
    db.close();
  }
}

/** pg_prewarm ships with PostgreSQL; like pg_trgm for the tests, it is made once in public. */
async function warmPostgres(connectionString: string, shownReportIds: readonly number[]): Promise<void> {
  const client = new pg.Client({ connectionString });
  await client.connect();
  try {
    await client.query('create extension if not exists pg_prewarm schema public');
    await client.query(
      `select public.pg_prewarm(c.oid::regclass, 'read') from pg_class c
       where c.oid = 'reports'::regclass or c.oid in (select indexrelid from pg_index where indrelid = 'reports'::regclass)`,
    );
    // length() detoasts, so the results' TOAST pages are read too.
    await client.query('select sum(length(results)) from report_runs where report_id = any($1)', [shownReportIds]);
  } finally {
    await client.end();
  }
}
