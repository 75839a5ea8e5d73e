// The few columns that decide who may see a report, read without its results: a refused viewer must
// cost the same for a report with 5 MB of results as for a missing id, or timing tells it exists.
import type { DbExecutor } from './executor.ts';
import type { Role } from '../db/tables/organization.table.ts';

export interface ReportGateRow {
  id: number;
  organization_id: number;
  privacy: number;
  password_hash: string | null;
  /** the viewer's role in the report's organisation; null: not a member (or nobody signed in) */
  viewer_role: Role | null;
  /** the account whose personal organisation holds the report; null: a shared organisation */
  personal_user_id: number | null;
}

/** Any organisation's report: only for pages whose access rules (privacy, membership) the caller enforces. */
export async function findReportGate(db: DbExecutor, id: number, viewerId: number | null): Promise<ReportGateRow | undefined> {
  return db
    .selectFrom('reports')
    .leftJoin('organization_members', (join) =>
      join.onRef('organization_members.organization_id', '=', 'reports.organization_id').on('organization_members.user_id', '=', viewerId ?? 0),
    )
    .innerJoin('organizations', 'organizations.id', 'reports.organization_id')
    .select([
      'reports.id',
      'reports.organization_id',
      'reports.privacy',
      'reports.password_hash',
      'organization_members.role as viewer_role',
      'organizations.personal_user_id',
    ])
    .where('reports.id', '=', id)
    .executeTakeFirst();
}
