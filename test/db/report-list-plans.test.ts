// At a million reports a list page must be read in index order, not sorted after the fact. SQLite's
// plan is deterministic for a given schema, so every filter x sort combination is checked here, on the
// statement the API runs: the page as a subquery whose items SQLite joins in its order (joined-items-json.ts).
import SqliteDatabase from 'better-sqlite3';
import { Kysely, SqliteDialect, type CompiledQuery } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/db/database.ts';
import { withValueBlindPlaceholders } from '../../src/db/sqlite-value-blind-sql.ts';
import { listProjectItemsJoined } from '../../src/repositories/project.repository.ts';
import { countReports, listReportItemsJoined, type ReportFilters } from '../../src/repositories/report.repository.ts';
import { readIdsInOrder, readIndexItems } from '../../src/repositories/list-index.repository.ts';
import { REPORT_FILTERS, REPORT_SORTS } from '../support/report-list-shapes.ts';
import { openTestDatabase, type TestDatabase } from '../support/databases.ts';


interface PlanRow {
  id: number;
  parent: number;
  detail: string;
}

describe('report list query plans [sqlite]', () => {
  let test: TestDatabase;
  let sqlite: SqliteDatabase.Database;
  let captured: CompiledQuery[];
  let logged: Kysely<Database>;

  beforeAll(async () => {
    test = await openTestDatabase('sqlite');
    sqlite = new SqliteDatabase(test.databaseUrl.slice('sqlite:'.length));
    logged = new Kysely<Database>({
      dialect: new SqliteDialect({ database: sqlite }),
      log: (event) => {
        captured.push(event.query);
      },
    });
  });
  afterAll(async () => {
    await logged.destroy();
    await test.destroy();
  });

  /** The plan of the statement as the app compiles it (with value-blind placeholders). */
  function planRows(query: CompiledQuery) {
    return sqlite.prepare(`explain query plan ${withValueBlindPlaceholders(query.sql)}`).all(...(query.parameters as unknown[])) as PlanRow[];
  }

  function plan(query: CompiledQuery): string[] {
    return planRows(query).map((row) => row.detail);
  }

  /**
   * The plan of a list page read as joined items, without the aggregate's own steps. It must read the
   * page as a co-routine, in the page's order, and join as the rows come: no sort or copy of its own.
   */
  function pagePlanRows(query: CompiledQuery): PlanRow[] {
    const rows = planRows(query);
    expect(rows[0].detail).toBe('CO-ROUTINE page');
    expect(rows.at(-1)!.detail).toBe('SCAN page');
    expect(rows.filter((row) => row.parent === 0)).toHaveLength(2);
    return rows.slice(1, -1);
  }

  function pagePlan(query: CompiledQuery): string[] {
    return pagePlanRows(query).map((row) => row.detail);
  }

  /** A search page's plan: the ids subquery's own steps, and the outer query's. */
  function searchPlan(query: CompiledQuery): { outer: string[]; subquery: string[] } {
    const rows = pagePlanRows(query);
    const subqueryIds = new Set(rows.filter((row) => row.detail.startsWith('LIST SUBQUERY')).map((row) => row.id));
    for (const row of rows) if (subqueryIds.has(row.parent)) subqueryIds.add(row.id);
    return {
      outer: rows.filter((row) => !subqueryIds.has(row.id)).map((row) => row.detail),
      subquery: rows.filter((row) => subqueryIds.has(row.id) && !row.detail.startsWith('LIST SUBQUERY')).map((row) => row.detail),
    };
  }

  for (const filters of REPORT_FILTERS) {
    for (const sortBy of REPORT_SORTS) {
      for (const sort of ['asc', 'desc'] as const) {
        it(`${JSON.stringify(filters)} sorted by ${sortBy} ${sort} uses an index for both the owner and the order`, async () => {
          captured = [];
          await listReportItemsJoined(logged, 1, { ...filters, sortBy, sort, limit: 25, offset: 50 });
          if (filters.search === undefined) {
            const details = pagePlan(captured[0]).join(' | ');
            expect(details).toMatch(/^SEARCH reports USING (COVERING )?INDEX reports_user_\w+ \(user_id=\?/);
            expect(details).not.toContain('TEMP B-TREE');
            return;
          }
          // The page's ids in index order, then only those rows, by id (sorting one page at most).
          const { outer, subquery } = searchPlan(captured[0]);
          expect(subquery.join(' | ')).toMatch(/^SEARCH reports USING (COVERING )?INDEX reports_user_\w+ \(user_id=\?/);
          expect(subquery.join(' | ')).not.toContain('TEMP B-TREE');
          expect(outer[0]).toBe('SEARCH reports USING INTEGER PRIMARY KEY (rowid=?)');
        });
      }
    }
    it(`${JSON.stringify(filters)} is counted from an index`, async () => {
      captured = [];
      await countReports(logged, 1, filters);
      expect(plan(captured[0]).join(' | ')).toMatch(/^SEARCH reports USING (COVERING )?INDEX reports_user_\w+ \(user_id=\?/);
    });
  }

  it('reads the default list (newest first) from the summary index alone, without reading the reports', async () => {
    captured = [];
    await listReportItemsJoined(logged, 1, { sortBy: 'id', sort: 'desc', limit: 100, offset: 0 });
    expect(pagePlan(captured[0]).join(' | ')).toBe('SEARCH reports USING COVERING INDEX reports_user_id_summary_idx (user_id=?)');
  });

  it('reads a project\'s list (newest first) from the project summary index alone', async () => {
    captured = [];
    await listReportItemsJoined(logged, 1, { project: 'a.com', sortBy: 'id', sort: 'desc', limit: 100, offset: 0 });
    expect(pagePlan(captured[0]).join(' | ')).toBe(
      'SEARCH reports USING COVERING INDEX reports_user_project_summary_idx (user_id=? AND project=?)',
    );
  });

  for (const sort of ['asc', 'desc'] as const) {
    it(`reads one verdict of a project by url (${sort}) from its summary index alone`, async () => {
      captured = [];
      await listReportItemsJoined(logged, 1, { project: 'a.com', result: 'bad', sortBy: 'url', sort, limit: 100, offset: 0 });
      expect(pagePlan(captured[0]).join(' | ')).toBe(
        'SEARCH reports USING COVERING INDEX reports_user_project_rank_url_summary_idx (user_id=? AND project=? AND result_rank=?)',
      );
    });
  }

  it('finds a url search page\'s ids (newest first) from the narrow url index alone', async () => {
    captured = [];
    await listReportItemsJoined(logged, 1, { search: 'pricing', sortBy: 'id', sort: 'desc', limit: 100, offset: 0 });
    expect(searchPlan(captured[0]).subquery).toEqual(['SEARCH reports USING COVERING INDEX reports_user_id_url_lower_idx (user_id=?)']);
  });

  const searches: ReportFilters[] = [
    { search: 'pricing' },
    { search: 'pricing', result: 'bad' },
    { search: 'pricing', project: 'a.com' },
    { search: 'pricing', project: 'a.com', result: 'good' },
  ];
  for (const filters of searches) {
    for (const sortBy of ['id', 'generated_at', 'url', 'result'] as const) {
      it(`finds the ids of ${JSON.stringify(filters)} sorted by ${sortBy} from the sort's index alone`, async () => {
        captured = [];
        await listReportItemsJoined(logged, 1, { ...filters, sortBy, sort: 'asc', limit: 100, offset: 0 });
        expect(searchPlan(captured[0]).subquery.join(' | ')).toMatch(/^SEARCH reports USING COVERING INDEX reports_user_\w+ \(user_id=\?/);
      });
    }
  }

  for (const filters of REPORT_FILTERS.filter((filter) => filter.search === undefined)) {
    it(`reads a deep page of ${JSON.stringify(filters)} in every sort: its ids from a narrow index alone, then its rows`, async () => {
      for (const sortBy of REPORT_SORTS) {
        captured = [];
        await listReportItemsJoined(logged, 1, { ...filters, sortBy, sort: 'desc', limit: 100, offset: 5_000 });
        const { outer, subquery } = searchPlan(captured[0]);
        const ids = subquery.join(' | ');
        expect(ids).toMatch(/SEARCH reports USING COVERING INDEX reports_user_\w+ \(user_id=\?/);
        expect(ids).not.toContain('summary');
        expect(ids).not.toContain('TEMP B-TREE');
        expect(outer[0]).toBe('SEARCH reports USING INTEGER PRIMARY KEY (rowid=?)');
      }
    });
  }

  for (const search of [undefined, 'shop']) {
    it(`reads a projects page${search ? ' with a name search' : ''} in each sort from the sort's index, joined as it is read`, async () => {
      for (const sortBy of ['created_at', 'project'] as const) {
        for (const sort of ['asc', 'desc'] as const) {
          captured = [];
          await listProjectItemsJoined(logged, 1, { search, sortBy, sort, limit: 100, offset: 0 });
          const details = pagePlan(captured[0]).join(' | ');
          expect(details, `${sortBy} ${sort}`).toMatch(/^SEARCH projects USING INDEX \w+ \(user_id=\?\)$/);
        }
      }
    });
  }

  it('counts a url search from an index alone, without reading the reports', async () => {
    captured = [];
    await countReports(logged, 1, { search: 'pricing' });
    expect(plan(captured[0]).join(' | ')).toMatch(/^SEARCH reports USING COVERING INDEX reports_user_id_url_lower_idx \(user_id=\?\)$/);
  });

  it('reads an account\'s list index items from the project summary index alone, in its order', async () => {
    captured = [];
    await readIndexItems(logged, 1);
    expect(plan(captured[0])).toEqual(['SEARCH reports USING COVERING INDEX reports_user_project_rank_url_summary_idx (user_id=?)']);
  });

  for (const key of ['url', 'generated_at'] as const) {
    it(`reads an account's ids in ${key} order from the ${key} index alone`, async () => {
      captured = [];
      await readIdsInOrder(logged, 1, key);
      expect(plan(captured[0])).toEqual([`SEARCH reports USING COVERING INDEX reports_user_${key}_idx (user_id=?)`]);
    });
  }
});
