// The account's counter that keyed cached search counts now keys kept list answers too, so it must
// move on every change to the account's reports or projects, not only on count changes: renamed from
// report_counts_version to reports_version to say so. Frozen: never import application code here.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('users').renameColumn('report_counts_version', 'reports_version').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('users').renameColumn('reports_version', 'report_counts_version').execute();
}
