// The few columns that decide who may see a report, read without its results: a refused viewer must
// cost the same for a report with 5 MB of results as for a missing id, or timing tells it exists.
import type { DbExecutor } from './executor.ts';

export interface ReportGateRow {
  id: number;
  user_id: number;
  privacy: number;
  password_hash: string | null;
}

/** Any account's report: only for pages whose access rules (privacy) the caller enforces. */
export async function findReportGate(db: DbExecutor, id: number): Promise<ReportGateRow | undefined> {
  return db.selectFrom('reports').select(['id', 'user_id', 'privacy', 'password_hash']).where('id', '=', id).executeTakeFirst();
}
