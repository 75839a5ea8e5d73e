// Rich-result errors across a crawl (docs/structured-data.md, "Crawls"): each analysed page keeps the
// distinct (type, property, message) of its rich-result errors as a JSON array of triples, null when it
// has none (most pages, and every page stored before this), for the site check rich_result_errors.
// Frozen: never import application code here.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('crawl_pages').addColumn('rich_result_errors', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('crawl_pages').dropColumn('rich_result_errors').execute();
}
