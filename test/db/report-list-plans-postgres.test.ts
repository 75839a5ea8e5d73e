// The PostgreSQL half of report-list-plans.test.ts. On PostgreSQL the list and count queries run as
// named prepared statements (prepared-reads.ts), and after five runs PostgreSQL may switch such a
// statement to a generic plan, made without the parameter values: such a plan could scan the whole
// table, or read an account's reports in no index order and sort them all, on every page. So every
// shape is planned here exactly as the app sends it, under force_generic_plan (and force_custom_plan).
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { insertProjectsBulk, listProjectItems, type ProjectInsert } from '../../src/repositories/project.repository.ts';
import { countReports, insertReportsBulk, listReportItems } from '../../src/repositories/report.repository.ts';
import type { ReportInsert } from '../../src/repositories/report.repository.ts';
import { REPORT_FILTERS, REPORT_SORTS } from '../support/report-list-shapes.ts';
import { openTestDatabase, testDialects, type TestDatabase } from '../support/databases.ts';
import { newUserId, reportInsert } from '../support/repository-fixtures.ts';

const PLAN_CACHE_MODES = ['force_generic_plan', 'force_custom_plan'] as const;
const ACCOUNTS = 40;
const REPORTS_PER_ACCOUNT = 500;
const HOSTS = ['a.com', 'b.com', 'c.org', 'd.net', 'e.io', 'f.dev', 'g.app', 'h.co'];
const PATHS = ['/', '/pricing', '/about', '/blog/', '/docs/', '/Pricing/plans', '/contact', '/shop/'];
const RESULTS = ['good', 'decent', 'bad'] as const;

function noReportsYet(userId: number, host: string, at: string): ProjectInsert {
  return { user_id: userId, name: host, reports_count: 0, good_count: 0, decent_count: 0, bad_count: 0, created_at: at, updated_at: at };
}

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  Filter?: string;
  'Index Cond'?: string;
  Plans?: PlanNode[];
}

/** The node and every node below it, parents first. */
function nodesOf(node: PlanNode): PlanNode[] {
  return [node, ...(node.Plans ?? []).flatMap(nodesOf)];
}

/** One line per node, indented, for failure messages. */
function outline(node: PlanNode, depth = 0): string {
  const on = [node['Relation Name'], node['Index Name']].filter(Boolean).join(' using ');
  const children = (node.Plans ?? []).map((child) => outline(child, depth + 1));
  return [`${'  '.repeat(depth)}${node['Node Type']}${on ? ` on ${on}` : ''}`, ...children].join('\n');
}

const sortsIn = (plan: PlanNode) => nodesOf(plan).filter((node) => node['Node Type'].endsWith('Sort'));
const scansOf = (plan: PlanNode, table: string) => nodesOf(plan).filter((node) => node['Relation Name'] === table);
const indexesOf = (scan: PlanNode) => nodesOf(scan).flatMap((node) => node['Index Name'] ?? []);

function expectNoSort(plan: PlanNode): void {
  expect(sortsIn(plan).map((node) => node['Node Type']), outline(plan)).toEqual([]);
}

/** No Seq Scan at all, and every read of `table` in `plan` goes through an index matching `owner`. */
function expectOwnerIndexReads(plan: PlanNode, whole: PlanNode, table: string, owner: RegExp): void {
  expect(nodesOf(whole).map((node) => node['Node Type']), outline(whole)).not.toContain('Seq Scan');
  const scans = scansOf(plan, table);
  expect(scans, outline(whole)).not.toHaveLength(0);
  for (const scan of scans) {
    expect(['Index Scan', 'Index Only Scan', 'Bitmap Heap Scan'], outline(whole)).toContain(scan['Node Type']);
    expect(indexesOf(scan), outline(whole)).not.toHaveLength(0);
    for (const index of indexesOf(scan)) expect(index, outline(whole)).toMatch(owner);
  }
}

const spyOnPoolQuery = () => vi.spyOn(pg.Pool.prototype, 'query');

describe.skipIf(!testDialects().includes('postgres'))('report list query plans [postgres]', () => {
  let test: TestDatabase;
  let explainer: pg.Client;
  let owner: number;
  // The app's direct reader sends each hot read as pool.query({ name, text, values }).
  let poolQuery: ReturnType<typeof spyOnPoolQuery>;

  beforeAll(async () => {
    poolQuery = spyOnPoolQuery();
    test = await openTestDatabase('postgres');
    const reports: ReportInsert[] = [];
    const projects: ProjectInsert[] = [];
    for (let account = 0; account < ACCOUNTS; account++) {
      owner = await newUserId(test.db);
      const byHost = new Map<string, ProjectInsert>();
      for (let n = 0; n < REPORTS_PER_ACCOUNT; n++) {
        const host = HOSTS[(n * 7 + account) % HOSTS.length];
        const result = RESULTS[(n * 5 + account) % RESULTS.length];
        const at = new Date(Date.UTC(2026, 0, 1) + ((n * 7919) % REPORTS_PER_ACCOUNT) * 3_600_000).toISOString();
        reports.push(reportInsert(owner, { url: `https://${host}${PATHS[n % PATHS.length]}${n}`, result, generated_at: at }));
        const project = byHost.get(host) ?? noReportsYet(owner, host, at);
        project.reports_count++;
        project[`${result}_count`]++;
        byHost.set(host, project);
      }
      projects.push(...byHost.values());
    }
    await insertReportsBulk(test.db, reports);
    await insertProjectsBulk(test.db, projects);
    explainer = new pg.Client({ connectionString: test.databaseUrl });
    await explainer.connect();
    // As autovacuum leaves a table: statistics, and the visibility map that lets an index answer alone.
    await explainer.query('vacuum analyze reports');
    await explainer.query('analyze projects');
  });
  afterAll(async () => {
    poolQuery?.mockRestore();
    await explainer?.end();
    await test?.destroy();
  });

  /** The one named statement `run` sent, planned as `PREPARE` + `EXECUTE` under the plan cache mode. */
  async function planOf(run: () => Promise<unknown>, mode: string): Promise<PlanNode> {
    poolQuery.mockClear();
    await run();
    expect(poolQuery).toHaveBeenCalledTimes(1);
    const { name, text, values = [] } = poolQuery.mock.calls[0][0] as unknown as pg.QueryConfig;
    expect(name).toMatch(/^pagegrade_/);
    const literals = values.map((value) => (typeof value === 'number' ? String(value) : explainer.escapeLiteral(String(value))));
    await explainer.query(`set plan_cache_mode = ${mode}`);
    await explainer.query(`prepare page as ${text}`);
    try {
      const { rows } = await explainer.query(`explain (format json) execute page(${literals.join(', ')})`);
      const plan = rows[0]['QUERY PLAN'][0].Plan as PlanNode;
      // A generic plan shows the parameters ($1) where a custom one shows the values.
      expect(JSON.stringify(plan).includes('$1'), outline(plan)).toBe(mode === 'force_generic_plan');
      return plan;
    } finally {
      await explainer.query('deallocate page');
    }
  }

  for (const mode of PLAN_CACHE_MODES) {
    describe(mode, () => {
      for (const filters of REPORT_FILTERS) {
        for (const sortBy of REPORT_SORTS) {
          for (const sort of ['asc', 'desc'] as const) {
            it(`${JSON.stringify(filters)} sorted by ${sortBy} ${sort} uses an index for the owner and the order`, async () => {
              const plan = await planOf(() => listReportItems(test.db, owner, { ...filters, sortBy, sort, limit: 25, offset: 50 }), mode);
              if (filters.search === undefined) {
                expectOwnerIndexReads(plan, plan, 'reports', /^reports_user_/);
                if (filters.project === undefined) expectNoSort(plan);
                // A custom plan knows how few reports one project holds (about 60 here) and may sort
                // them rather than read a wider index in order: never more than that project's rows.
                for (const sorted of sortsIn(plan)) {
                  for (const scan of scansOf(sorted, 'reports')) expect(scan['Index Cond'], outline(plan)).toContain('project');
                }
                if (mode === 'force_generic_plan') expectNoSort(plan);
                return;
              }
              // The page's ids (the subquery's Limit) from an owner index, then only those rows by id.
              const page = nodesOf(plan).find((node) => node['Node Type'] === 'Limit');
              expect(page, outline(plan)).toBeDefined();
              const inPage = new Set(nodesOf(page!));
              expectOwnerIndexReads(page!, plan, 'reports', /^reports_user_/);
              const byId = scansOf(plan, 'reports').filter((scan) => !inPage.has(scan));
              expect(byId.map((scan) => `${scan['Node Type']} ${scan['Index Name']}`), outline(plan)).toEqual(['Index Scan reports_pkey']);
              for (const sorted of sortsIn(plan)) {
                if (!inPage.has(sorted)) {
                  // The outer query orders the page's rows it looked up by id: at most `limit` of them.
                  expect(nodesOf(sorted), outline(plan)).toContain(page);
                  continue;
                }
                // A generic plan cannot know how many urls match the search and assumes 0.5% of the
                // account's reports (LIKE's default). So a search sorted by url or generated_at reads the
                // account's rows through (user_id, id, url_lower), in the heap's order, and sorts the
                // matches instead of walking the url or generated_at index, as the search's count reads
                // them all anyway. The Sort must take only the search's matches (its input filters on
                // url_lower), read through an owner index (checked above): never all the account's rows.
                const [input] = sorted.Plans ?? [];
                expect(input?.['Relation Name'], outline(plan)).toBe('reports');
                expect(input?.Filter, outline(plan)).toContain('url_lower');
              }
            });
          }
        }
        if (filters.search === undefined) {
          it(`a deep page of ${JSON.stringify(filters)} takes its ids from an owner index alone, then its rows by id`, async () => {
            for (const sortBy of REPORT_SORTS) {
              const plan = await planOf(() => listReportItems(test.db, owner, { ...filters, sortBy, sort: 'desc', limit: 25, offset: 1_000 }), mode);
              const page = nodesOf(plan).find((node) => node['Node Type'] === 'Limit');
              expect(page, outline(plan)).toBeDefined();
              expectOwnerIndexReads(page!, plan, 'reports', /^reports_user_/);
              // The 1,000 rows skipped are never fetched from the table.
              expect(scansOf(page!, 'reports').map((scan) => scan['Node Type']), outline(plan)).toEqual(['Index Only Scan']);
              const inPage = new Set(nodesOf(page!));
              const byId = scansOf(plan, 'reports').filter((scan) => !inPage.has(scan));
              expect(byId.map((scan) => `${scan['Node Type']} ${scan['Index Name']}`), outline(plan)).toEqual(['Index Scan reports_pkey']);
            }
          });
        }
        it(`${JSON.stringify(filters)} is counted from an owner index`, async () => {
          const plan = await planOf(() => countReports(test.db, owner, filters), mode);
          expectOwnerIndexReads(plan, plan, 'reports', /^reports_user_/);
          expectNoSort(plan);
        });
      }

      for (const search of [undefined, 'com']) {
        for (const sortBy of ['created_at', 'project'] as const) {
          for (const sort of ['asc', 'desc'] as const) {
            it(`projects ${search ? 'searched ' : ''}sorted by ${sortBy} ${sort} are read through an owner index`, async () => {
              const plan = await planOf(() => listProjectItems(test.db, owner, { search, sortBy, sort, limit: 25, offset: 0 }), mode);
              expectOwnerIndexReads(plan, plan, 'projects', /^projects_user_/);
              // An account has one project per host. A custom plan knows it has a few (8 here) and may
              // sort them; a generic one expects a search to keep 0.5% of them. Without a search the
              // generic plan must read them in index order, whatever the account's size.
              if (mode === 'force_generic_plan' && search === undefined) expectNoSort(plan);
            });
          }
        }
      }
    });
  }
});
