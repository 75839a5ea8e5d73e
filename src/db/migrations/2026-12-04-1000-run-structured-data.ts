// Structured data (docs/structured-data.md): each run keeps the report's `structured_data` as JSON
// text, null when the page had none and for every run made before this one. Frozen: never import
// application code here.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('report_runs').addColumn('structured_data', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('report_runs').dropColumn('structured_data').execute();
}
