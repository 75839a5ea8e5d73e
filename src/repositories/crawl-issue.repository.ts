// A finished crawl's findings: what the site checks stored (they read the crawl's pages and links in
// bounded steps themselves, src/crawl/site-scan.ts).
import { statementChunks, type DbExecutor } from './executor.ts';

export interface IssueRow {
  check_id: string;
  importance: string;
  count: number;
  items: string;
}

/** Stores a crawl's findings, replacing any from an earlier attempt (at most one row per site check). */
export async function storeFindings(db: DbExecutor, crawlId: number, issues: readonly IssueRow[]): Promise<void> {
  await db.deleteFrom('crawl_issues').where('crawl_id', '=', crawlId).execute();
  for (const chunk of statementChunks(issues.map((issue) => ({ ...issue, crawl_id: crawlId })))) {
    await db.insertInto('crawl_issues').values(chunk).execute();
  }
}

export async function listIssues(db: DbExecutor, crawlId: number): Promise<IssueRow[]> {
  return db.selectFrom('crawl_issues').select(['check_id', 'importance', 'count', 'items']).where('crawl_id', '=', crawlId).execute();
}
