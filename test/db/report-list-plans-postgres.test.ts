// The PostgreSQL half of report-list-plans.test.ts. PostgreSQL plans each statement the app sends
// (an unnamed statement, so a custom plan made with its parameters) from the table's statistics, so
// the plans here are made as at scale: on accounts shaped as the read benchmark's (seedPlanAccounts,
// the owner's reports spread over a table fifty times their number), vacuumed and analysed as
// autovacuum leaves a table.
import pg from 'pg';
import { Kysely, PostgresDialect, type CompiledQuery } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/db/database.ts';
import { countProjects, listProjects, sumProjectCounts } from '../../src/repositories/project.repository.ts';
import { countReports, listReports, type ReportFilters } from '../../src/repositories/report.repository.ts';
import { PLAN_ACCOUNTS, PLAN_REPORTS_PER_ACCOUNT, REPORT_FILTERS, REPORT_SORTS, seedPlanAccounts } from '../support/report-list-shapes.ts';
import { openTestDatabase, testDialects, type TestDatabase } from '../support/databases.ts';

/**
 * A first page, smaller than every shape's set here (one verdict of a project is 40 reports, as in the
 * benchmark's data), so that reading it in index order beats sorting: on a set that fits in the page
 * the planner reads it all and sorts it, rightly. And the first page that reads its ids first
 * (DEEP_PAGE_OFFSET in report.repository.ts).
 */
const PAGE = { limit: 25, offset: 0 };
const DEEP_PAGE = { limit: 25, offset: 1_000 };

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  'Index Cond'?: string;
  Filter?: string;
  'Plan Rows'?: number;
  Plans?: PlanNode[];
}

/** The node and every node below it, parents first. */
function nodesOf(node: PlanNode): PlanNode[] {
  return [node, ...(node.Plans ?? []).flatMap(nodesOf)];
}

/** One line per node, indented, for failure messages. */
function outline(node: PlanNode, depth = 0): string {
  const on = [node['Relation Name'], node['Index Name']].filter(Boolean).join(' using ');
  const conditions = [node['Index Cond'] && `cond ${node['Index Cond']}`, node.Filter && `filter ${node.Filter}`].filter(Boolean).join(', ');
  const line = `${'  '.repeat(depth)}${node['Node Type']}${on ? ` on ${on}` : ''} (rows ${node['Plan Rows']})${conditions ? ` ${conditions}` : ''}`;
  return [line, ...(node.Plans ?? []).map((child) => outline(child, depth + 1))].join('\n');
}

const isSort = (node: PlanNode) => node['Node Type'].endsWith('Sort');
const scansOf = (plan: PlanNode, table: string) => nodesOf(plan).filter((node) => node['Relation Name'] === table);

/** The owner's and the filters' equality conditions an owner index must take (result through result_rank). */
function conditionsFor(filters: ReportFilters): string[] {
  return ['organization_id =', filters.project === undefined ? [] : 'project =', filters.result === undefined ? [] : 'result_rank ='].flat();
}

describe.skipIf(!testDialects().includes('postgres'))('report list query plans [postgres]', () => {
  let test: TestDatabase;
  let explainer: pg.Client;
  let logged: Kysely<Database>;
  let captured: CompiledQuery[];
  let owner: number;

  beforeAll(async () => {
    test = await openTestDatabase('postgres');
    owner = await seedPlanAccounts(test.db);

    explainer = new pg.Client({ connectionString: test.databaseUrl });
    await explainer.connect();
    await vacuumAndAnalyze(explainer);
    logged = new Kysely<Database>({
      dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: test.databaseUrl, max: 1 }) }),
      log: (event) => {
        captured.push(event.query);
      },
    });
  }, 240_000);
  afterAll(async () => {
    await logged?.destroy();
    await explainer?.end();
    await test?.destroy();
  });

  /** The plan of the one statement `run` sent, planned as PostgreSQL plans it for the app: with its parameters. */
  async function planOf(run: (db: Kysely<Database>) => Promise<unknown>): Promise<PlanNode> {
    captured = [];
    await run(logged);
    expect(captured).toHaveLength(1);
    const [query] = captured;
    const { rows } = await explainer.query(`explain (format json) ${query.sql}`, query.parameters as unknown[]);
    return rows[0]['QUERY PLAN'][0].Plan as PlanNode;
  }

  /**
   * Under `page` (the page's Limit), the reports are read by one scan of an owner index whose
   * condition takes the owner and every equality filter, in the index's order: no Sort, no Seq Scan,
   * no Bitmap scan (which reads in the table's order and so needs a Sort). `covering`: an Index Only
   * Scan, which never reads the rows it skips or tests. Except a set the planner expects to fit in the
   * page (see PAGE): that is read whole whichever index holding the filters is walked, so the planner
   * may take a smaller one in another order and sort those few rows, rightly.
   */
  function expectPageInIndexOrder(page: PlanNode, plan: PlanNode, filters: ReportFilters, covering: boolean): void {
    const below = nodesOf(page);
    const scans = scansOf(page, 'reports');
    const fitsInPage = scans.length === 1 && (scans[0]['Plan Rows'] ?? Number.POSITIVE_INFINITY) < PAGE.limit;
    if (!fitsInPage) expect(below.filter(isSort).map((node) => node['Node Type']), outline(plan)).toEqual([]);
    expect(scans.map((scan) => scan['Node Type']), outline(plan)).toEqual([covering ? 'Index Only Scan' : expect.stringMatching(/^Index (Only )?Scan$/)]);
    const [scan] = scans;
    expect(scan['Index Name'], outline(plan)).toMatch(/^reports_user_/);
    for (const condition of conditionsFor(filters)) expect(scan['Index Cond'], outline(plan)).toContain(condition);
  }

  /**
   * A page whose ids are read first (a search, a deep page): the ids (the subquery's Limit) come in
   * index order from an owner index alone, then only those rows are read, by id. Ordering the page's
   * own rows after that lookup (at most `limit` of them) is allowed.
   */
  function expectIdsFromIndexAlone(plan: PlanNode, filters: ReportFilters): void {
    expect(nodesOf(plan).map((node) => node['Node Type']), outline(plan)).not.toContain('Seq Scan');
    const page = nodesOf(plan).find((node) => node['Node Type'] === 'Limit');
    expect(page, outline(plan)).toBeDefined();
    expectPageInIndexOrder(page!, plan, filters, true);
    const inPage = new Set(nodesOf(page!));
    const byId = scansOf(plan, 'reports').filter((scan) => !inPage.has(scan));
    expect(byId.map((scan) => `${scan['Node Type']} using ${scan['Index Name']}`), outline(plan)).toEqual(['Index Scan using reports_pkey']);
    // A Sort under the page was judged above; any other orders the page's own rows, after the lookup.
    for (const sort of nodesOf(plan).filter((node) => isSort(node) && !inPage.has(node))) expect(nodesOf(sort), outline(plan)).toContain(page);
  }

  /** No Seq Scan, and every read of `table` goes through an index that takes the owner (`conditions`). */
  function expectOwnerIndexReads(plan: PlanNode, table: string, conditions: string[]): void {
    expect(nodesOf(plan).map((node) => node['Node Type']), outline(plan)).not.toContain('Seq Scan');
    const reads = nodesOf(plan).filter((node) => node['Relation Name'] === table || node['Node Type'] === 'Bitmap Index Scan');
    expect(reads, outline(plan)).not.toHaveLength(0);
    for (const read of reads) {
      if (read['Node Type'] === 'Bitmap Heap Scan') continue; // its Bitmap Index Scan below is checked
      expect(['Index Scan', 'Index Only Scan', 'Bitmap Index Scan'], outline(plan)).toContain(read['Node Type']);
      expect(read['Index Name'], outline(plan)).toMatch(new RegExp(`^${table}_user_`));
      for (const condition of conditions) expect(read['Index Cond'], outline(plan)).toContain(condition);
    }
  }

  describe('a page of reports', () => {
    for (const filters of REPORT_FILTERS) {
      for (const sortBy of REPORT_SORTS) {
        for (const sort of ['asc', 'desc'] as const) {
          const shape = `${JSON.stringify(filters)} sorted by ${sortBy} ${sort}`;
          if (filters.search === undefined) {
            it(`${shape} is read in the order of an owner index that holds its filters`, async () => {
              const plan = await planOf((db) => listReports(db, owner, { ...filters, sortBy, sort, ...PAGE }));
              expect(plan['Node Type'], outline(plan)).toBe('Limit');
              expectPageInIndexOrder(plan, plan, filters, false);
            });
            it(`${shape}, deep, takes its ids in order from an owner index alone, then its rows by id`, async () => {
              const plan = await planOf((db) => listReports(db, owner, { ...filters, sortBy, sort, ...DEEP_PAGE }));
              expectIdsFromIndexAlone(plan, filters);
            });
          } else {
            it(`${shape} tests the url on an owner index alone, in its order, then reads the page's rows by id`, async () => {
              const plan = await planOf((db) => listReports(db, owner, { ...filters, sortBy, sort, ...PAGE }));
              expectIdsFromIndexAlone(plan, filters);
            });
          }
        }
      }
    }
  });

  describe('counts', () => {
    for (const filters of REPORT_FILTERS.filter((shape) => shape.search !== undefined)) {
      it(`counts ${JSON.stringify(filters)} on an owner index alone, without reading the reports`, async () => {
        const plan = await planOf((db) => countReports(db, owner, filters));
        expect(scansOf(plan, 'reports').map((scan) => scan['Node Type']), outline(plan)).toEqual(['Index Only Scan']);
        expectOwnerIndexReads(plan, 'reports', conditionsFor(filters));
      });
    }

    // A list without a search is counted from the project rows (lists.reports), the way it asks.
    for (const filters of REPORT_FILTERS.filter((shape) => shape.search === undefined)) {
      it(`counts ${JSON.stringify(filters)} from the account's project rows through an owner index`, async () => {
        const plan = await planOf((db) => sumProjectCounts(db, owner, filters.result ?? 'reports', filters.project));
        expectOwnerIndexReads(plan, 'projects', filters.project === undefined ? ['organization_id ='] : ['organization_id =', 'name =']);
      });
    }

    for (const search of [undefined, 'com']) {
      it(`counts the account's projects${search ? ' matching a name search' : ''} through an owner index`, async () => {
        const plan = await planOf((db) => countProjects(db, owner, { search }));
        expectOwnerIndexReads(plan, 'projects', ['organization_id =']);
      });
    }
  });

  describe('a page of projects', () => {
    // An account has a few projects (ten here): the planner may sort them rather than walk an index,
    // which costs nothing, but it must find them through an owner index.
    for (const search of [undefined, 'com']) {
      for (const sortBy of ['created_at', 'project'] as const) {
        for (const sort of ['asc', 'desc'] as const) {
          it(`${search ? 'searched and ' : ''}sorted by ${sortBy} ${sort} is read through an owner index`, async () => {
            const plan = await planOf((db) => listProjects(db, owner, { search, sortBy, sort, ...PAGE }));
            expectOwnerIndexReads(plan, 'projects', ['organization_id =']);
          });
        }
      }
    }
  });
});

/**
 * VACUUM ANALYZE, as autovacuum leaves a table: statistics to plan with, and a visibility map that
 * lets an index answer alone. Two things would make the plans differ from run to run, so neither is
 * left to chance. ANALYZE samples 300 rows per unit of statistics target: with a target that covers
 * every row its statistics are exact, where a sample would move the estimates a little each run.
 * And VACUUM can mark a page all-visible only once no open transaction (another test's, on the same
 * server) may still not see its rows: it is repeated until every page is, for up to two minutes.
 */
async function vacuumAndAnalyze(client: pg.Client): Promise<void> {
  await client.query(`set default_statistics_target = ${Math.ceil((PLAN_ACCOUNTS * PLAN_REPORTS_PER_ACCOUNT) / 300) + 1}`);
  await client.query('vacuum analyze reports');
  await client.query('vacuum analyze projects');
  for (const deadline = Date.now() + 120_000; ; ) {
    const { rows } = await client.query<{ visible: boolean }>(
      `select bool_and(relallvisible = relpages) as visible from pg_class
       where relname in ('reports', 'projects') and relnamespace = current_schema()::regnamespace`,
    );
    if (rows[0].visible) return;
    if (Date.now() > deadline) throw new Error('VACUUM could not mark every page all-visible: a transaction stayed open on the server');
    await new Promise((resolve) => setTimeout(resolve, 500));
    await client.query('vacuum reports');
    await client.query('vacuum projects');
  }
}
