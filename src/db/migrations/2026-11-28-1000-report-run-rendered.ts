// Rendering (render=1): each run keeps what JavaScript changed on the page, as JSON text, or null
// for a run that was not rendered (every run before this one). Frozen: never import application code here.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('report_runs').addColumn('rendered', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('report_runs').dropColumn('rendered').execute();
}
