// A url search sorted by anything but id, or filtered by project, walks the index of its filters and
// sort in order and tests each report's url_lower until the page is full. Without url_lower in that
// index, every report walked past was a table row read: with "pricing" in one url of ten, a page of 100
// read a thousand rows scattered over the table. Every sort and filter index (all but the id-ordered
// ones, which hold url_lower or the summary already) now ends in url_lower, so the walk reads the index
// alone. Frozen: never import application code here.
//
// Measured on a million SQLite reports (10,000 per account), `?search=pricing&sort_by=url&sort=asc`:
// 0.9 -> 0.22 ms per page on one warm account; through the server with 10 connections 255 -> 1,013
// req/s, p99 86 -> 19 ms.
import { SqliteAdapter, sql, type Kysely } from 'kysely';

/** Each index's columns before this migration; up() appends url_lower, down() takes it off again. */
const SORT_INDEXES: Record<string, string[]> = {
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
  await rebuildSortIndexes(db, (columns) => [...columns, 'url_lower']);
}

export async function down(db: Kysely<any>): Promise<void> {
  await rebuildSortIndexes(db, (columns) => columns);
}

/** Each index dropped and made again under its own name, all in one transaction. */
async function rebuildSortIndexes(db: Kysely<any>, columnsOf: (columns: string[]) => string[]): Promise<void> {
  await inTransaction(db, async (trx) => {
    for (const [name, columns] of Object.entries(SORT_INDEXES)) {
      await trx.schema.dropIndex(name).execute();
      await trx.schema.createIndex(name).on('reports').columns(columnsOf(columns)).execute();
    }
    await keepSqliteStatistics(trx, Object.keys(SORT_INDEXES));
  });
}

/**
 * Dropping an index drops its row in sqlite_stat1, the statistics SQLite plans with once ANALYZE has
 * made them. An index without a row there beside analysed ones looks better than it is: on a million
 * analysed reports the default list took a rebuilt rank index and sorted the account's 10,000 rows
 * (2,255 -> 80 req/s). So where statistics exist, the rebuilt indexes get theirs again.
 */
async function keepSqliteStatistics(db: Kysely<any>, indexes: string[]): Promise<void> {
  if (!(db.getExecutor().adapter instanceof SqliteAdapter)) return;
  const { rows } = await sql<{ found: number }>`select count(*) as found from sqlite_master where name = 'sqlite_stat1'`.execute(db);
  if (rows[0].found === 0) return;
  for (const index of indexes) await sql`analyze ${sql.id(index)}`.execute(db);
}

/** PostgreSQL migrations already run in a transaction; SQLite's do not, and eleven indexes change here. */
async function inTransaction(db: Kysely<any>, work: (trx: Kysely<any>) => Promise<void>): Promise<void> {
  if (db.isTransaction) return work(db);
  await db.transaction().execute(work);
}
