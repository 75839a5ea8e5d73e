// sort_by=score on the report list (docs/api.md): a page sorted by score is read in the
// order of an index, as every other sort is, alone or with a project filter, a result filter or both,
// and each index ends in url_lower so a url search walks it without reading the rows (see
// 2026-11-22-1200-search-in-sort-indexes). Frozen: never import application code here.
//
// A report without a run has no score, and it sorts last in both directions. SQLite reads an ascending
// index in two passes for that (the rows with a score, then those without), so one index per filter
// serves both directions. PostgreSQL cannot: an index NULLS LAST read backwards is descending NULLS
// FIRST, so the two filters that can meet a report without a run get a descending NULLS LAST index
// too. A result filter never matches such a report (result_rank -1), so there the repository sorts
// without saying where nulls go, and the ascending index read backwards serves the descending sort.
import { PostgresAdapter, SqliteAdapter, sql, type Kysely } from 'kysely';

/** On both dialects; PostgreSQL's ascending default puts nulls last already. */
const SCORE_INDEXES: Record<string, string[]> = {
  reports_user_score_idx: ['user_id', 'score', 'id', 'url_lower'],
  reports_user_rank_score_idx: ['user_id', 'result_rank', 'score', 'id', 'url_lower'],
  reports_user_project_score_idx: ['user_id', 'project', 'score', 'id', 'url_lower'],
  reports_user_project_rank_score_idx: ['user_id', 'project', 'result_rank', 'score', 'id', 'url_lower'],
};

/** PostgreSQL only: score descending with nulls last, then id descending. */
const DESCENDING_INDEXES: Record<string, string[]> = {
  reports_user_score_desc_idx: ['user_id', 'score', 'id', 'url_lower'],
  reports_user_project_score_desc_idx: ['user_id', 'project', 'score', 'id', 'url_lower'],
};

export async function up(db: Kysely<any>): Promise<void> {
  const isPostgres = db.getExecutor().adapter instanceof PostgresAdapter;
  await inTransaction(db, async (trx) => {
    for (const [name, columns] of Object.entries(SCORE_INDEXES)) {
      await trx.schema.createIndex(name).on('reports').columns(columns).execute();
    }
    if (isPostgres) {
      for (const [name, columns] of Object.entries(DESCENDING_INDEXES)) {
        const parts = columns.map((column) =>
          column === 'score' ? sql`score desc nulls last` : column === 'id' ? sql`id desc` : sql.id(column),
        );
        await sql`create index ${sql.id(name)} on reports (${sql.join(parts)})`.execute(trx);
      }
    }
    await giveSqliteStatistics(trx, Object.keys(SCORE_INDEXES));
  });
}

export async function down(db: Kysely<any>): Promise<void> {
  const isPostgres = db.getExecutor().adapter instanceof PostgresAdapter;
  await inTransaction(db, async (trx) => {
    for (const name of Object.keys(SCORE_INDEXES)) await trx.schema.dropIndex(name).execute();
    if (isPostgres) for (const name of Object.keys(DESCENDING_INDEXES)) await trx.schema.dropIndex(name).execute();
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

/** PostgreSQL migrations already run in a transaction; SQLite's do not: all the indexes come or none. */
async function inTransaction(db: Kysely<any>, work: (trx: Kysely<any>) => Promise<void>): Promise<void> {
  if (db.isTransaction) return work(db);
  await db.transaction().execute(work);
}
