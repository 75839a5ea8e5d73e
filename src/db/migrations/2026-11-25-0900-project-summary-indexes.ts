// On SQLite, two indexes that hold a project's list items side by side, as reports_user_id_summary_idx
// does for the account's newest reports: (user_id, project, id, summary_json) for a project's reports
// newest first, and (user_id, project, result_rank, url, id, summary_json) for one verdict of a project
// by url. Frozen: never import application code here.
//
// Why: a project-filtered page found its ids in a narrow index, then read each report's row for its
// summary, one table page per item in no order; at a million reports (1.1 GB of rows beside SQLite's
// 256 MB cache) that was 65% of the server's time for the read benchmark's filtered list. Measured on
// the read benchmark's million SQLite reports, one statement per random project: newest first 290-340
// -> 107-129 µs per page of 100; one verdict by url 311-400 -> 85 µs per page of 65; through the server
// (no kept answers) the filtered list 1,293-1,698 -> 3,949 req/s, p99 13.5 -> 6.2 ms. Each costs about
// 600 bytes per report on disk (the summary), about 4% of the database with its results.
//
// The narrow indexes stay: a deep page skips thousands of entries to find its ids, which would read
// ten times the pages in a wide one. PostgreSQL gets neither, for the reason it has no summary index:
// a btree entry must fit in a third of a page, and an item with a long redirect chain can be larger.
import { PostgresAdapter, SqliteAdapter, sql, type Kysely } from 'kysely';

const INDEXES: Record<string, string[]> = {
  reports_user_project_summary_idx: ['user_id', 'project', 'id', 'summary_json'],
  reports_user_project_rank_url_summary_idx: ['user_id', 'project', 'result_rank', 'url', 'id', 'summary_json'],
};

export async function up(db: Kysely<any>): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) return;
  await inTransaction(db, async (trx) => {
    for (const [name, columns] of Object.entries(INDEXES)) {
      await trx.schema.createIndex(name).on('reports').columns(columns).execute();
    }
    await giveSqliteStatistics(trx, Object.keys(INDEXES));
  });
}

export async function down(db: Kysely<any>): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) return;
  await inTransaction(db, async (trx) => {
    for (const name of Object.keys(INDEXES)) await trx.schema.dropIndex(name).execute();
  });
}

/**
 * Where ANALYZE has made statistics (sqlite_stat1), the new indexes get theirs too: beside analysed
 * indexes, one without statistics looks better than it is, and the planner could take it for lists it
 * does not suit (see 2026-11-22-1200-search-in-sort-indexes).
 */
async function giveSqliteStatistics(db: Kysely<any>, indexes: string[]): Promise<void> {
  if (!(db.getExecutor().adapter instanceof SqliteAdapter)) return;
  const { rows } = await sql<{ found: number }>`select count(*) as found from sqlite_master where name = 'sqlite_stat1'`.execute(db);
  if (rows[0].found === 0) return;
  for (const index of indexes) await sql`analyze ${sql.id(index)}`.execute(db);
}

/** SQLite migrations do not run in a transaction of their own; both indexes come or neither does. */
async function inTransaction(db: Kysely<any>, work: (trx: Kysely<any>) => Promise<void>): Promise<void> {
  if (db.isTransaction) return work(db);
  await db.transaction().execute(work);
}
