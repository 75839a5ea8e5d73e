// List mode (docs/crawls.md, "List mode"): a list crawl's URLs may be on any of its listed hosts, so
// every claim and crawl start asks which list crawls under way have URLs on a host. This partial
// index finds those crawls (few) without reading every crawl ever made; a spider crawl's rows are not
// in it. Frozen: never import application code here.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await sql`create index crawls_list_state_idx on crawls (state) where mode = 'list'`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('crawls_list_state_idx').execute();
}
