// The report list shapes the query-plan tests walk on each database: filter sets that take each kind of
// index (none, project, result, both, a url search alone and with both), and every sort key; and the
// accounts they are planned on where the plan depends on the data.
import type { DbExecutor } from '../../src/repositories/executor.ts';
import type { ReportResult } from '../../src/db/tables/report.table.ts';
import { insertProjectsBulk } from '../../src/repositories/project.repository.ts';
import {
  insertReportsBulk,
  type ReportFilters,
  type ReportInsert,
  type ReportSortBy,
} from '../../src/repositories/report.repository.ts';
import { newOrganizationId, reportInsert } from './repository-fixtures.ts';
import { ProjectTally } from './project-tally.ts';

export const REPORT_FILTERS: ReportFilters[] = [
  {},
  { project: 'a.com' },
  { result: 'good' },
  { project: 'a.com', result: 'bad' },
  { search: 'pricing' },
  { search: 'pricing', project: 'a.com', result: 'decent' },
];

export const REPORT_SORTS: ReportSortBy[] = ['id', 'generated_at', 'url', 'result', 'score'];

/**
 * The accounts plans are made on, shaped as the read benchmark's (bench/seed-rows.ts) at a tenth of
 * its size: 50 accounts of 2,000 reports (there 100 of 10,000), in projects of 200 as there, each
 * account's project names its own, one url in ten under /pricing/. The first account, the shapes'
 * owner (its first project is a.com), holds 2% of the table.
 */
export const PLAN_ACCOUNTS = 50;
export const PLAN_REPORTS_PER_ACCOUNT = 2_000;
const PROJECTS_PER_ACCOUNT = 10;
const SECTIONS = ['pricing', 'blog', 'docs', 'products', 'news', 'about', 'help', 'category', 'articles', 'shop'];

/**
 * Seeds the accounts and returns the owner's id. The reports arrive account after account in turn, as
 * on a live service: each account's rows are spread over the whole table, generated_at rising with the
 * id. Report n of an account is in project n mod 10, its verdict from the next digit (3 good, 5 decent,
 * 2 bad in ten), under /pricing/ when the digit after is 0: projects, verdicts and searches are
 * independent, and a project holds 40 reports of one verdict.
 */
export async function seedPlanAccounts(db: DbExecutor): Promise<number> {
  const userIds: number[] = [];
  for (let account = 0; account < PLAN_ACCOUNTS; account++) userIds.push(await newOrganizationId(db));
  const reports: ReportInsert[] = [];
  const projects = new ProjectTally();
  for (let n = 0; n < PLAN_REPORTS_PER_ACCOUNT; n++) {
    for (let account = 0; account < PLAN_ACCOUNTS; account++) {
      const at = new Date(Date.UTC(2026, 0, 1) + reports.length * 60_000).toISOString();
      const report = accountReport(userIds[account], account, n, at);
      reports.push(report);
      projects.add(report);
    }
  }
  await insertReportsBulk(db, reports);
  await insertProjectsBulk(db, projects.rows());
  return userIds[0];
}

function accountReport(userId: number, account: number, n: number, at: string): ReportInsert {
  const projectNumber = n % PROJECTS_PER_ACCOUNT;
  const project = account === 0 && projectNumber === 0 ? 'a.com' : `www.site-${account}-${projectNumber}.example`;
  const verdictDigit = Math.floor(n / 10) % 10;
  const result: ReportResult = verdictDigit < 3 ? 'good' : verdictDigit < 8 ? 'decent' : 'bad';
  const url = `https://${project}/${SECTIONS[Math.floor(n / 100) % 10]}/page-${n}`;
  return reportInsert(userId, {
    url,
    result,
    // Spread within the verdict's band, so a sort by score has an order to follow and few ties.
    score: result === 'good' ? 80 + (n % 21) : result === 'decent' ? 50 + (n % 30) : n % 50,
    // The size of a real report's page facts (about 240 bytes), so a row is as wide as in the benchmark.
    page: JSON.stringify({ final_url: url, status_code: 200, redirects: [], content_type: 'text/html; charset=utf-8', bytes: 20_000 + n }),
    generated_at: at,
    created_at: at,
    updated_at: at,
  });
}
