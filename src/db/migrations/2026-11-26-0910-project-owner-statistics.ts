// PostgreSQL: a project name belongs to one account, but the planner takes the owner and the project
// as independent and, multiplying their shares, expects a handful of a project's reports (2 of 200 at
// a million reports). For so few rows it read and sorted the whole project on every page instead of
// walking reports_user_project_*_idx in order. Extended statistics tell it the project depends on the
// owner; ANALYZE (autovacuum's, or the one here) fills them in. SQLite's planner needs none of this.
// Frozen: never import application code here.
import { PostgresAdapter, sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
  await sql`create statistics reports_user_project_stats (dependencies) on user_id, project from reports`.execute(db);
  await sql`analyze reports`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
  await sql`drop statistics if exists reports_user_project_stats`.execute(db);
}
