// The reads behind the in-memory list indexes: what builds an account's index
// (services/list-index-build.ts: all of its reports' list items, and its reports' ids in the
// database's own url and generated_at order; on the index's own thread and connection, so each is
// one statement), and the order in which a starting server builds them.
//
// Why these orders: the items come in (project, result_rank, url, id) order, which SQLite reads from
// one index that holds the summary too (reports_user_project_rank_url_summary_idx), so a build reads no
// table row there; url and generated_at come from the database rather than a comparison in JavaScript,
// so the index sorts exactly as the SQL lists do (binary on SQLite, collate "C" on PostgreSQL).
import { sql } from 'kysely';
import type { DbExecutor } from './executor.ts';

export interface IndexItemRow {
  id: number;
  project: string;
  result_rank: number;
  summary_json: string;
}

export async function readIndexItems(db: DbExecutor, userId: number): Promise<IndexItemRow[]> {
  return db
    .selectFrom('reports')
    .select(['id', 'project', 'result_rank', 'summary_json'])
    .where('user_id', '=', userId)
    .orderBy('project')
    .orderBy('result_rank')
    .orderBy('url')
    .orderBy('id')
    .execute();
}

/** The sort keys whose order only the database can tell exactly. */
export type KeyedOrder = 'url' | 'generated_at';

/** The account's report ids in (key, id) order. */
export async function readIdsInOrder(db: DbExecutor, userId: number, key: KeyedOrder): Promise<number[]> {
  const rows = await db.selectFrom('reports').select('id').where('user_id', '=', userId).orderBy(key).orderBy('id').execute();
  return rows.map((row) => row.id);
}

/**
 * Every account, the one whose API key was used last first (never-used ones last, by id): the order
 * in which a starting server builds list indexes.
 */
export async function readAccountsByRecentKeyUse(db: DbExecutor): Promise<number[]> {
  const rows = await db
    .selectFrom('users')
    .leftJoin('api_keys', 'api_keys.user_id', 'users.id')
    .select('users.id')
    // '' sorts below every ISO time on both databases, where NULLs would sort first on one, last on the other.
    .orderBy(sql`coalesce(max(api_keys.last_used_at), '')`, 'desc')
    .orderBy('users.id')
    .groupBy('users.id')
    .execute();
  return rows.map((row) => row.id);
}
