import { describe, expect, it } from 'vitest';
import { forEachDialect } from '../../test/support/databases.ts';
import { newOrganizationId, reportInsert } from '../../test/support/repository-fixtures.ts';
import type { ReportResult } from '../db/tables/report.table.ts';
import type { DbExecutor } from './executor.ts';
import {
  addRun,
  countReports,
  deleteReport,
  deleteReportsOfProject,
  findReport,
  findReportById,
  findReportRow,
  insertReport,
  insertReportsBulk,
  listReports,
  listReportsAfter,
  updateReport,
  type ReportInsert,
  type ReportListRow,
  type ReportSortBy,
} from './report.repository.ts';

const NOW = '2026-11-21T10:00:00.000Z';

const report = reportInsert;

async function insertAll(db: DbExecutor, organizationId: number, overrides: Partial<ReportInsert>[]): Promise<number[]> {
  const ids: number[] = [];
  for (const override of overrides) ids.push(await insertReport(db, report(organizationId, override)));
  return ids;
}

const RANK: Record<ReportResult, number> = { bad: 0, decent: 1, good: 2 };

/** A report created to be analysed in the background, before its first run: no score, no generated_at. */
const NO_RUN: Partial<ReportInsert> = {
  result: null,
  score: null,
  issues_high: null,
  issues_medium: null,
  issues_low: null,
  page: null,
  results: null,
  generated_at: null,
  state: 'queued',
};

forEachDialect('report repository', (database) => {
  it('inserts a report, deriving url_lower and result_rank, and finds it only for its owner', async () => {
    const { db } = database();
    const owner = await newOrganizationId(db);
    const stranger = await newOrganizationId(db);
    const id = await insertReport(db, report(owner, { url: 'https://Example.com/Pricing', result: 'decent', score: 64 }));
    expect(id).toBeTypeOf('number');

    const row = await findReport(db, owner, id);
    expect(row).toMatchObject({
      id,
      organization_id: owner,
      url: 'https://Example.com/Pricing',
      url_lower: 'https://example.com/pricing',
      project: 'example.com',
      result: 'decent',
      result_rank: 1,
      score: 64,
      results: '{"title":{"passed":true}}',
    });
    expect(await findReport(db, stranger, id)).toBeUndefined();
    expect(await findReportById(db, id)).toEqual(row);
    expect(await findReportById(db, id + 1_000_000)).toBeUndefined();
  });

  it("lists and counts only the caller's reports, without the results column", async () => {
    const { db } = database();
    const owner = await newOrganizationId(db);
    const stranger = await newOrganizationId(db);
    const ids = await insertAll(db, owner, [{ url: 'https://a.com/1' }, { url: 'https://a.com/2' }]);
    await insertAll(db, stranger, [{ url: 'https://a.com/3' }]);

    const rows = await listReports(db, owner, { sortBy: 'id', sort: 'asc', limit: 10, offset: 0 });
    expect(rows.map((row) => row.id)).toEqual(ids);
    expect(rows[0]).not.toHaveProperty('results');
    expect(rows[0]).toHaveProperty('page');
    expect(await countReports(db, owner, {})).toBe(2);
  });

  it('filters by project, by result and by both', async () => {
    const { db } = database();
    const owner = await newOrganizationId(db);
    const [goodA, badA, goodB, decentA] = await insertAll(db, owner, [
      { url: 'https://a.com/1', result: 'good' },
      { url: 'https://a.com/2', result: 'bad' },
      { url: 'https://b.com:8080/1', result: 'good' },
      { url: 'https://a.com/3', result: 'decent' },
    ]);
    const list = async (filters: { project?: string; result?: ReportResult }) => ({
      ids: (await listReports(db, owner, { ...filters, sortBy: 'id', sort: 'asc', limit: 10, offset: 0 })).map((row) => row.id),
      count: await countReports(db, owner, filters),
    });

    expect(await list({ project: 'a.com' })).toEqual({ ids: [goodA, badA, decentA], count: 3 });
    expect(await list({ project: 'b.com:8080' })).toEqual({ ids: [goodB], count: 1 });
    expect(await list({ project: 'b.com' })).toEqual({ ids: [], count: 0 });
    expect(await list({ result: 'good' })).toEqual({ ids: [goodA, goodB], count: 2 });
    expect(await list({ project: 'a.com', result: 'good' })).toEqual({ ids: [goodA], count: 1 });
    expect(await list({ project: 'a.com', result: 'decent' })).toEqual({ ids: [decentA], count: 1 });
  });

  describe('sorting', () => {
    // Every key has ties, and upper/lower case that a locale collation would interleave.
    const rows: Partial<ReportInsert>[] = [
      { url: 'https://a.com/b', result: 'good', score: 90, generated_at: '2026-11-21T10:00:00.000Z' },
      { url: 'https://a.com/B', result: 'bad', score: 12, generated_at: '2026-11-21T09:00:00.000Z' },
      { url: 'https://a.com/b', result: 'decent', score: 64, generated_at: '2026-11-21T10:00:00.000Z' },
      { url: 'https://a.com/a', result: 'good', score: 90, generated_at: '2026-11-21T11:00:00.000Z' },
      { url: 'https://a.com/Z', result: 'bad', score: 3, generated_at: '2026-11-21T09:00:00.000Z' },
      { url: 'https://a.com/a', result: 'decent', score: 64, generated_at: '2026-11-21T10:00:00.000Z' },
    ];
    const key = (row: Partial<ReportInsert>, sortBy: ReportSortBy): string | number => {
      switch (sortBy) {
        case 'id':
          return 0;
        case 'generated_at':
          return row.generated_at!;
        case 'url':
          return row.url!;
        case 'result':
          return RANK[row.result!];
        case 'score':
          return row.score!;
        default:
          return sortBy satisfies never;
      }
    };

    for (const sortBy of ['id', 'generated_at', 'url', 'result', 'score'] as const) {
      for (const sort of ['asc', 'desc'] as const) {
        it(`by ${sortBy} ${sort}, ties broken by id in the same direction`, async () => {
          const { db } = database();
          const owner = await newOrganizationId(db);
          const ids = await insertAll(db, owner, rows);
          // Plain < compares UTF-16 code units: code-point order for these ASCII URLs.
          const expected = rows
            .map((row, index) => ({ key: key(row, sortBy), id: ids[index] }))
            .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : a.id - b.id))
            .map((entry) => entry.id);
          if (sort === 'desc') expected.reverse();

          const listed = await listReports(db, owner, { sortBy, sort, limit: 10, offset: 0 });
          expect(listed.map((row) => row.id)).toEqual(expected);
        });
      }
    }

    it('orders urls by code point: upper case before lower case', async () => {
      const { db } = database();
      const owner = await newOrganizationId(db);
      await insertAll(db, owner, [
        { url: 'https://a.com/a' },
        { url: 'https://a.com/Z' },
        { url: 'https://a.com/B' },
        { url: 'https://a.com/_' },
        { url: 'https://a.com/b' },
      ]);
      const listed = await listReports(db, owner, { sortBy: 'url', sort: 'asc', limit: 10, offset: 0 });
      expect(listed.map((row) => row.url)).toEqual([
        'https://a.com/B',
        'https://a.com/Z',
        'https://a.com/_',
        'https://a.com/a',
        'https://a.com/b',
      ]);
    });

    it('puts reports without a run (no score) last by score in both directions, first by generated_at ascending', async () => {
      const { db } = database();
      const owner = await newOrganizationId(db);
      const [queued, scored, failed, low] = await insertAll(db, owner, [
        NO_RUN,
        { score: 70, result: 'decent' },
        { ...NO_RUN, state: 'failed' },
        { score: 20, result: 'bad' },
      ]);
      const order = async (sortBy: ReportSortBy, sort: 'asc' | 'desc') =>
        (await listReports(db, owner, { sortBy, sort, limit: 10, offset: 0 })).map((row) => row.id);
      expect(await order('score', 'asc')).toEqual([low, scored, queued, failed]);
      expect(await order('score', 'desc')).toEqual([scored, low, failed, queued]);
      expect((await order('generated_at', 'asc')).slice(0, 2)).toEqual([queued, failed]);
      expect((await order('generated_at', 'desc')).slice(2)).toEqual([failed, queued]);
    });

    it('pages with limit and offset without overlap or gaps', async () => {
      const { db } = database();
      const owner = await newOrganizationId(db);
      await insertAll(db, owner, rows);
      const everything = await listReports(db, owner, { sortBy: 'url', sort: 'desc', limit: 10, offset: 0 });
      const pages = [];
      for (let offset = 0; offset < rows.length + 2; offset += 4) {
        pages.push(await listReports(db, owner, { sortBy: 'url', sort: 'desc', limit: 4, offset }));
      }
      expect(pages.map((page) => page.length)).toEqual([4, 2]);
      expect(pages.flat().map((row) => row.id)).toEqual(everything.map((row) => row.id));
    });
  });

  it('reads a whole list in batches after the last row read, as the same reports in the same order as one read, for every sort and filter', async () => {
    const { db } = database();
    const owner = await newOrganizationId(db);
    const verdicts: ReportResult[] = ['good', 'decent', 'bad'];
    // Upper and lower case, which code-point order (and so the seek past a url) keeps apart.
    const PATHS = ['b', 'B', '_1', 'a1'];
    // Ties in every key, and reports without a run (null score and generated_at) among them.
    await insertAll(
      db,
      owner,
      Array.from({ length: 23 }, (_, index) =>
        index % 5 === 2
          ? { ...NO_RUN, url: `https://${index % 2 ? 'a' : 'b'}.com/${PATHS[index % 4]}` }
          : {
              url: `https://${index % 2 ? 'a' : 'b'}.com/${PATHS[index % 4]}`,
              result: verdicts[index % 3],
              score: [10, 55, 90][index % 3] + (index % 2),
              generated_at: `2026-11-2${index % 3}T10:00:00.000Z`,
            },
      ),
    );
    await insertAll(db, await newOrganizationId(db), [{ url: 'https://a.com/0' }]);
    for (const sortBy of ['id', 'generated_at', 'url', 'result', 'score'] as const) {
      for (const sort of ['asc', 'desc'] as const) {
        for (const filters of [{}, { project: 'a.com' }, { result: 'good' as const }, { search: '/1' }]) {
          const options = { ...filters, sortBy, sort };
          const whole = (await listReports(db, owner, { ...options, limit: 100, offset: 0 })).map((row) => row.id);
          const batches: number[][] = [];
          for (let after: ReportListRow | undefined, batch = await listReportsAfter(db, owner, { ...options, limit: 3 }); batch.length > 0; ) {
            batches.push(batch.map((row) => row.id));
            after = batch.at(-1);
            batch = await listReportsAfter(db, owner, { ...options, limit: 3 }, after);
          }
          expect(batches.flat(), JSON.stringify(options)).toEqual(whole);
          expect(batches.slice(0, -1).every((batch) => batch.length === 3), JSON.stringify(options)).toBe(true);
        }
      }
    }
  });

  it('searches the url case-insensitively, with %, _ and \\ taken literally', async () => {
    const { db } = database();
    const owner = await newOrganizationId(db);
    const stranger = await newOrganizationId(db);
    const [percent, underscore, backslash, plain, upper] = await insertAll(db, owner, [
      { url: 'https://s.com/100%25' },
      { url: 'https://s.com/a_b' },
      { url: 'https://s.com/?q=a\\b' },
      { url: 'https://s.com/axb' },
      { url: 'https://s.com/A_B/Upper' },
    ]);
    await insertAll(db, stranger, [{ url: 'https://s.com/a_b' }]);
    const search = async (term: string) => ({
      ids: (await listReports(db, owner, { search: term, sortBy: 'id', sort: 'asc', limit: 10, offset: 0 })).map((row) => row.id),
      count: await countReports(db, owner, { search: term }),
    });

    expect(await search('%')).toEqual({ ids: [percent], count: 1 });
    expect(await search('_')).toEqual({ ids: [underscore, upper], count: 2 });
    expect(await search('a_b')).toEqual({ ids: [underscore, upper], count: 2 });
    expect(await search('\\')).toEqual({ ids: [backslash], count: 1 });
    expect(await search('a\\b')).toEqual({ ids: [backslash], count: 1 });
    expect(await search('a%b')).toEqual({ ids: [], count: 0 });
    expect(await search('UPPER')).toEqual({ ids: [upper], count: 1 });
    expect(await search('S.COM/A')).toEqual({ ids: [underscore, plain, upper], count: 3 });
    expect(await search('s.com')).toEqual({ ids: [percent, underscore, backslash, plain, upper], count: 5 });
  });

  it("updates a report's fields only for its owner", async () => {
    const { db } = database();
    const owner = await newOrganizationId(db);
    const stranger = await newOrganizationId(db);
    const [id] = await insertAll(db, owner, [{ result: 'good', privacy: 2, password_hash: 'scrypt$x' }]);
    const later = '2026-11-22T08:00:00.000Z';
    expect(await updateReport(db, stranger, id, { privacy: 0, updated_at: later })).toBe(0);
    expect(await findReport(db, owner, id)).toMatchObject({ privacy: 2, updated_at: NOW, results: '{"title":{"passed":true}}' });
    expect(await updateReport(db, owner, id, { privacy: 1, password_hash: null, state: 'queued', updated_at: later })).toBe(1);
    expect(await findReport(db, owner, id)).toMatchObject({ privacy: 1, password_hash: null, state: 'queued', updated_at: later, created_at: NOW });
  });

  it('adds runs numbered one past the last, the report showing the newest, and keeps only the newest few', async () => {
    const { db } = database();
    const owner = await newOrganizationId(db);
    const [id] = await insertAll(db, owner, [{ result: 'good' }]);
    expect(await findReport(db, owner, id)).toMatchObject({ runs_count: 1, last_run_number: 1 });
    const current = async () => (await findReportRow(db, owner, id))!;
    const run = (score: number) => ({
      trigger: 'regenerate' as const,
      result: score >= 80 ? ('good' as const) : ('bad' as const),
      score,
      issues_high: 1,
      issues_medium: 2,
      issues_low: 3,
      page: '{"status_code":200}',
      results: `{"score":${score}}`,
      generated_at: `2026-11-2${score % 10}T00:00:00.000Z`,
    });
    const patch = (at: string) => ({ patch: { state: 'done' as const, updated_at: at }, keep: 3 });
    for (const score of [11, 92, 13]) await addRun(db, await current(), run(score), patch(NOW));
    expect(await findReport(db, owner, id)).toMatchObject({ runs_count: 3, last_run_number: 4, score: 13, result: 'bad', result_rank: 0, results: '{"score":13}' });
    expect(await addRun(db, await current(), run(94), patch(NOW))).toBe(5);
    const kept = await db.selectFrom('report_runs').select(['number', 'score', 'trigger']).where('report_id', '=', id).orderBy('number').execute();
    expect(kept).toEqual([
      { number: 3, score: 92, trigger: 'regenerate' },
      { number: 4, score: 13, trigger: 'regenerate' },
      { number: 5, score: 94, trigger: 'regenerate' },
    ]);
    expect(await findReport(db, owner, id)).toMatchObject({ runs_count: 3, last_run_number: 5, score: 94, result_rank: 2 });
  });

  it('deletes a report only for its owner', async () => {
    const { db } = database();
    const owner = await newOrganizationId(db);
    const stranger = await newOrganizationId(db);
    const [id] = await insertAll(db, owner, [{}]);
    expect(await deleteReport(db, stranger, id)).toBe(0);
    expect(await deleteReport(db, owner, id)).toBe(1);
    expect(await findReport(db, owner, id)).toBeUndefined();
    expect(await deleteReport(db, owner, id)).toBe(0);
    // Its runs went with it.
    expect(await db.selectFrom('report_runs').select('report_id').where('report_id', '=', id).execute()).toEqual([]);
  });

  it("deletes the caller's reports of one project and no others", async () => {
    const { db } = database();
    const owner = await newOrganizationId(db);
    const stranger = await newOrganizationId(db);
    const [, , other] = await insertAll(db, owner, [
      { url: 'https://a.com/1' },
      { url: 'https://a.com/2' },
      { url: 'https://b.com/1' },
    ]);
    const [strangers] = await insertAll(db, stranger, [{ url: 'https://a.com/1' }]);

    expect(await deleteReportsOfProject(db, owner, 'a.com')).toBe(2);
    expect((await listReports(db, owner, { sortBy: 'id', sort: 'asc', limit: 10, offset: 0 })).map((row) => row.id)).toEqual([other]);
    expect(await findReport(db, stranger, strangers)).toBeDefined();
    expect(await deleteReportsOfProject(db, owner, 'a.com')).toBe(0);
  });

  it('reads a deep page (its ids first, from 1,000 rows in), as rows or as items, as the same reports in the same order as a shallow read', async () => {
    const { db } = database();
    const owner = await newOrganizationId(db);
    const verdicts: ReportResult[] = ['good', 'decent', 'bad'];
    await insertReportsBulk(
      db,
      Array.from({ length: 1_300 }, (_, index) =>
        report(owner, { url: `https://${index % 2 ? 'a' : 'b'}.com/${(index * 7919) % 1_300}`, result: verdicts[index % 3] }),
      ),
    );
    for (const [options, length] of [
      [{ sortBy: 'id', sort: 'desc', limit: 100, offset: 1_000 }, 100],
      [{ sortBy: 'url', sort: 'asc', limit: 100, offset: 1_250 }, 50],
      [{ sortBy: 'generated_at', sort: 'desc', limit: 25, offset: 1_100 }, 25],
      [{ sortBy: 'result', sort: 'asc', limit: 50, offset: 1_000, result: 'bad' }, 0],
      [{ sortBy: 'result', sort: 'asc', limit: 500, offset: 1_000 }, 300],
    ] as const) {
      // The reference: the same rows read from the start, on the shallow path, then cut at the offset.
      const fromStart = await listReports(db, owner, { ...options, limit: options.offset + options.limit, offset: 0 });
      const expected = fromStart.slice(options.offset).map((row) => row.id);
      expect(expected, JSON.stringify(options)).toHaveLength(length);
      expect((await listReports(db, owner, options)).map((row) => row.id), JSON.stringify(options)).toEqual(expected);
    }
  });

  describe('bulk insert', () => {
    // More rows than one multi-row statement may bind (32,766 parameters / 17 columns = 1,927 rows).
    const MANY = 2_500;

    it('inserts every row in order across several statements, deriving url_lower and result_rank', async () => {
      const { db } = database();
      const owner = await newOrganizationId(db);
      const verdicts: ReportResult[] = ['good', 'decent', 'bad'];
      const rows = Array.from({ length: MANY }, (_, index) =>
        report(owner, { url: `https://Bulk.example/Page-${index}`, result: verdicts[index % 3], results: `{"row":${index}}` }),
      );
      await insertReportsBulk(db, rows);

      expect(await countReports(db, owner, {})).toBe(MANY);
      expect(await countReports(db, owner, { result: 'bad' })).toBe(Math.floor(MANY / 3));
      const listed = await listReports(db, owner, { sortBy: 'id', sort: 'asc', limit: MANY, offset: 0 });
      expect(listed.map((row) => row.url)).toEqual(rows.map((row) => row.url));
      expect(listed[MANY - 1]).toMatchObject({
        url_lower: `https://bulk.example/page-${MANY - 1}`,
        result: verdicts[(MANY - 1) % 3],
        result_rank: RANK[verdicts[(MANY - 1) % 3]],
      });
      // Each report's results landed with that report, as its run 1, in every statement.
      const stored = await db.selectFrom('report_runs').selectAll().where('report_id', 'in', listed.map((row) => row.id)).execute();
      expect(stored.every((run) => run.number === 1 && run.trigger === 'create')).toBe(true);
      const resultsById = new Map(stored.map((row) => [row.report_id, row.results]));
      expect(listed.map((row) => resultsById.get(row.id))).toEqual(rows.map((row) => row.results));
    });

    it('inserts nothing when one row is invalid, even in a later statement', async () => {
      const { db } = database();
      const owner = await newOrganizationId(db);
      const rows = Array.from({ length: MANY }, (_, index) => report(owner, { url: `https://bulk.example/${index}` }));
      rows[MANY - 1] = report(owner, { score: 101 });
      await expect(insertReportsBulk(db, rows)).rejects.toThrow();
      expect(await countReports(db, owner, {})).toBe(0);
    });

    it("joins the caller's transaction and rolls back with it", async () => {
      const { db } = database();
      const owner = await newOrganizationId(db);
      const rows = [report(owner, { url: 'https://a.com/1' }), report(owner, { url: 'https://a.com/2' })];
      await expect(
        db.transaction().execute(async (trx) => {
          await insertReportsBulk(trx, rows);
          expect(await countReports(trx, owner, {})).toBe(2);
          throw new Error('abandon');
        }),
      ).rejects.toThrow('abandon');
      expect(await countReports(db, owner, {})).toBe(0);
    });

    it('accepts an empty list', async () => {
      const { db } = database();
      await expect(insertReportsBulk(db, [])).resolves.toBeUndefined();
    });
  });
});
