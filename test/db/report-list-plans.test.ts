// At a million reports a list page must be read in index order, not sorted after the fact, and a
// count must not read every row. Every filter x sort combination is checked here on the statements
// the repository runs: captured through Kysely's log, then planned with EXPLAIN QUERY PLAN and their
// own parameters. Twice: as the app leaves a database (it never runs ANALYZE, so SQLite plans from
// the schema alone), and analysed on accounts shaped as the read benchmark's, as the benchmark leaves
// its database (bench/seed.ts) and as anyone running ANALYZE would: statistics can change a plan.
import SqliteDatabase from 'better-sqlite3';
import { Kysely, SqliteDialect, type CompiledQuery } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/db/database.ts';
import { countProjects, listProjects, sumProjectCounts } from '../../src/repositories/project.repository.ts';
import { countReports, listReports, type ReportFilters } from '../../src/repositories/report.repository.ts';
import { REPORT_FILTERS, REPORT_SORTS, seedPlanAccounts } from '../support/report-list-shapes.ts';
import { openTestDatabase, type TestDatabase } from '../support/databases.ts';

/** A first page, and the first page that reads its ids first (DEEP_PAGE_OFFSET in report.repository.ts). */
const PAGE = { limit: 25, offset: 0 };
const DEEP_PAGE = { limit: 25, offset: 1_000 };

interface PlanRow {
  id: number;
  parent: number;
  detail: string;
}

const BY_ID = 'SEARCH reports USING INTEGER PRIMARY KEY (rowid=?)';

/** A step that walks an owner index of reports (`SEARCH reports USING [COVERING] INDEX reports_user_...`). */
function ownerIndexStep(detail: string): { covering: boolean; equalities: string } | undefined {
  const match = /^SEARCH reports USING (COVERING )?INDEX reports_user_\w+ \((organization_id=\?[^)]*)\)$/.exec(detail);
  return match ? { covering: match[1] !== undefined, equalities: match[2] } : undefined;
}

/** The index's equality columns: the owner's, then one for each filter that has one. */
function equalitiesFor(filters: ReportFilters): string {
  return ['organization_id=?', filters.project === undefined ? [] : 'project=?', filters.result === undefined ? [] : 'result_rank=?']
    .flat()
    .join(' AND ');
}

const DATABASES = [
  { name: 'without statistics', analysed: false },
  { name: 'analysed, at scale', analysed: true },
];

describe.each(DATABASES)('report list query plans [sqlite] $name', ({ analysed }) => {
  let test: TestDatabase;
  let sqlite: SqliteDatabase.Database;
  let captured: CompiledQuery[];
  let logged: Kysely<Database>;
  let owner = 1;

  beforeAll(async () => {
    test = await openTestDatabase('sqlite');
    if (analysed) owner = await seedPlanAccounts(test.db);
    sqlite = new SqliteDatabase(test.databaseUrl.slice('sqlite:'.length));
    if (analysed) sqlite.exec('analyze');
    logged = new Kysely<Database>({
      dialect: new SqliteDialect({ database: sqlite }),
      log: (event) => {
        captured.push(event.query);
      },
    });
  }, 120_000);
  afterAll(async () => {
    await logged?.destroy();
    await test?.destroy();
  });

  /** The plan of the one statement `run` sent, as SQLite would run it with the same parameters. */
  async function planOf(run: (db: Kysely<Database>) => Promise<unknown>): Promise<PlanRow[]> {
    captured = [];
    await run(logged);
    expect(captured).toHaveLength(1);
    const [query] = captured;
    return sqlite.prepare(`explain query plan ${query.sql}`).all(...(query.parameters as unknown[])) as PlanRow[];
  }

  const details = (rows: PlanRow[]) => rows.map((row) => row.detail);
  const shown = (rows: PlanRow[]) => details(rows).join('\n');

  /**
   * A page read whole in the order of an owner index: one step, no sort of its own, the index's
   * equality columns the owner's and the filters' (so no filter is tested row by row).
   */
  function expectIndexOrderedPage(rows: PlanRow[], filters: ReportFilters): void {
    expect(rows, shown(rows)).toHaveLength(1);
    expect(ownerIndexStep(rows[0].detail), shown(rows)).toEqual({ covering: expect.any(Boolean), equalities: equalitiesFor(filters) });
  }

  /**
   * A page whose ids are read first (a search, a deep page): the ids subquery walks an owner index
   * alone (covering, so the rows it skips or tests are never read) in the index's order, then the
   * outer query reads only those rows, by id. Ordering the page's own rows there (at most `limit` of
   * them) is allowed; ordering anything inside the subquery is not.
   */
  function expectIdsFromIndexAlone(rows: PlanRow[], filters: ReportFilters): void {
    const inner = new Set(rows.filter((row) => /^(LIST SUBQUERY|CO-ROUTINE|SCAN page)/.test(row.detail)).map((row) => row.id));
    for (const row of rows) if (inner.has(row.parent)) inner.add(row.id);
    const subquery = rows.filter((row) => inner.has(row.id) && !/^(LIST SUBQUERY|CO-ROUTINE|SCAN page)/.test(row.detail));
    const outer = rows.filter((row) => !inner.has(row.id));

    expect(subquery, shown(rows)).toHaveLength(1);
    expect(ownerIndexStep(subquery[0].detail), shown(rows)).toEqual({ covering: true, equalities: equalitiesFor(filters) });
    expect(details(outer).filter((detail) => detail !== 'USE TEMP B-TREE FOR ORDER BY'), shown(rows)).toEqual([BY_ID]);
  }

  describe('a page of reports', () => {
    for (const filters of REPORT_FILTERS) {
      for (const sortBy of REPORT_SORTS) {
        for (const sort of ['asc', 'desc'] as const) {
          const shape = `${JSON.stringify(filters)} sorted by ${sortBy} ${sort}`;
          if (filters.search === undefined) {
            it(`${shape} is read in the order of an owner index that holds its filters`, async () => {
              const rows = await planOf((db) => listReports(db, owner, { ...filters, sortBy, sort, ...PAGE }));
              expectIndexOrderedPage(rows, filters);
            });
            it(`${shape}, deep, takes its ids in order from an owner index alone, then its rows by id`, async () => {
              const rows = await planOf((db) => listReports(db, owner, { ...filters, sortBy, sort, ...DEEP_PAGE }));
              expectIdsFromIndexAlone(rows, filters);
            });
          } else {
            it(`${shape} tests the url on an owner index alone, in its order, then reads the page's rows by id`, async () => {
              const rows = await planOf((db) => listReports(db, owner, { ...filters, sortBy, sort, ...PAGE }));
              expectIdsFromIndexAlone(rows, filters);
            });
          }
        }
      }
    }
  });

  describe('counts', () => {
    for (const filters of REPORT_FILTERS.filter((shape) => shape.search !== undefined)) {
      it(`counts ${JSON.stringify(filters)} on an owner index alone, without reading the reports`, async () => {
        const rows = await planOf((db) => countReports(db, owner, filters));
        expect(rows, shown(rows)).toHaveLength(1);
        expect(ownerIndexStep(rows[0].detail), shown(rows)).toEqual({ covering: true, equalities: equalitiesFor(filters) });
      });
    }

    // A list without a search is counted from the project rows (lists.reports), the way it asks.
    for (const filters of REPORT_FILTERS.filter((shape) => shape.search === undefined)) {
      it(`counts ${JSON.stringify(filters)} from the account's project rows through an owner index`, async () => {
        const rows = await planOf((db) => sumProjectCounts(db, owner, filters.result ?? 'reports', filters.project));
        const equalities = filters.project === undefined ? 'organization_id=\\?' : 'organization_id=\\? AND name=\\?';
        expect(details(rows)).toEqual([expect.stringMatching(new RegExp(`^SEARCH projects USING (COVERING )?INDEX \\w+ \\(${equalities}\\)$`))]);
      });
    }

    for (const search of [undefined, 'com']) {
      it(`counts the account's projects${search ? ' matching a name search' : ''} through an owner index`, async () => {
        const rows = await planOf((db) => countProjects(db, owner, { search }));
        expect(details(rows)).toEqual([expect.stringMatching(/^SEARCH projects USING (COVERING )?INDEX \w+ \(organization_id=\?\)$/)]);
      });
    }
  });

  describe('a page of projects', () => {
    for (const search of [undefined, 'com']) {
      for (const sortBy of ['created_at', 'project'] as const) {
        for (const sort of ['asc', 'desc'] as const) {
          it(`${search ? 'searched and ' : ''}sorted by ${sortBy} ${sort} is read in the order of an owner index`, async () => {
            const rows = await planOf((db) => listProjects(db, owner, { search, sortBy, sort, ...PAGE }));
            expect(details(rows)).toEqual([expect.stringMatching(/^SEARCH projects USING (COVERING )?INDEX \w+ \(organization_id=\?\)$/)]);
          });
        }
      }
    }
  });
});
