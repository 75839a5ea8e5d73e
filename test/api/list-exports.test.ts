// format=csv on GET /api/v1/reports and /projects, and sort_by=score (docs/api.md, "Lists and pagination"):
// every matching row (not one page) in the list's order, with a header line, RFC 4180 quoting and
// formula-looking text cells prefixed with '; a 422 for any other format; reports without a run last
// by score in both directions. Through real routing, on reports seeded in bulk (hundreds, so an export
// spans several of the list's pages and several of its own batches) and a few made through the API.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDb } from '../../src/db/database.ts';
import { insertProjectsBulk } from '../../src/repositories/project.repository.ts';
import { insertReportsBulk, type ReportInsert } from '../../src/repositories/report.repository.ts';
import { startTestApp, type TestApp } from '../support/api-app.ts';
import { testDialects } from '../support/databases.ts';
import { body, call, expectInvalid, expectJson, pathOf, UNAUTHENTICATED, type Account, type Body } from '../support/api-fixtures.ts';
import { ProjectTally } from '../support/project-tally.ts';
import { reportInsert } from '../support/repository-fixtures.ts';
import { csvObjects } from '../support/csv.ts';

const REPORT_COLUMNS = [
  'id', 'url', 'project', 'privacy', 'password', 'state', 'result', 'score', 'issues_high', 'issues_medium', 'issues_low',
  'page_status_code', 'page_final_url', 'page_redirects_count', 'page_load_time_ms', 'page_bytes', 'last_error_message',
  'runs_count', 'schedule', 'next_run_at', 'generated_at', 'created_at', 'updated_at',
];
const PROJECT_COLUMNS = ['project', 'reports_count', 'result_counts_good', 'result_counts_decent', 'result_counts_bad', 'created_at', 'updated_at'];

/** The owner's seeded reports: two projects, a third of the urls under /blog/, one in 25 without a run. */
const SEEDED = 1_200;
const VERDICTS = ['good', 'decent', 'bad'] as const;

function seededReport(userId: number, n: number): ReportInsert {
  const project = n % 2 === 1 ? 'a.example' : 'b.example';
  const url = `https://${project}/${n % 3 === 0 ? 'blog/post' : 'shop/Item'}-${n}`;
  const at = new Date(Date.UTC(2026, 10, 1) + n * 60_000).toISOString();
  const times = { created_at: at, updated_at: at };
  if (n % 25 === 7) {
    return reportInsert(userId, {
      url, ...times, result: null, score: null, issues_high: null, issues_medium: null, issues_low: null, page: null, results: null,
      generated_at: null, state: 'queued',
    });
  }
  const result = VERDICTS[n % 3];
  return reportInsert(userId, {
    url,
    ...times,
    // Every row names its state: a multi-row insert leaves no column to its default.
    state: 'done',
    result,
    // Within the verdict's band, with ties.
    score: result === 'good' ? 80 + (n % 7) : result === 'decent' ? 50 + (n % 11) : n % 13,
    issues_high: n % 4,
    issues_medium: n % 5,
    issues_low: n % 6,
    generated_at: at,
    page: JSON.stringify({
      final_url: `${url}/`,
      status_code: n % 10 === 0 ? 404 : 200,
      redirects: n % 10 === 0 ? [{ url, status_code: 301 }] : [],
      content_type: 'text/html',
      charset: 'utf-8',
      http_version: '1.1',
      bytes: 20_000 + n,
      load_time_ms: 100 + n,
    }),
  });
}

/** What the CSV's row of a list item must read: its scalar fields, null as an empty cell. */
function expectedRow(item: Body): Record<string, string> {
  const cell = (value: unknown) => (value === null || value === undefined ? '' : String(value));
  return {
    id: cell(item.id),
    url: cell(item.url),
    project: /^[=+\-@\t\r]/.test(item.project) ? `'${item.project}` : item.project,
    privacy: cell(item.privacy),
    password: cell(item.password),
    state: cell(item.state),
    result: cell(item.result),
    score: cell(item.score),
    issues_high: cell(item.issues?.high),
    issues_medium: cell(item.issues?.medium),
    issues_low: cell(item.issues?.low),
    page_status_code: cell(item.page?.status_code),
    page_final_url: cell(item.page?.final_url),
    page_redirects_count: cell(item.page?.redirects.length),
    page_load_time_ms: cell(item.page?.load_time_ms),
    page_bytes: cell(item.page?.bytes),
    last_error_message: cell(item.last_error?.message),
    runs_count: cell(item.runs_count),
    schedule: cell(item.schedule),
    next_run_at: cell(item.next_run_at),
    generated_at: cell(item.generated_at),
    created_at: cell(item.created_at),
    updated_at: cell(item.updated_at),
  };
}

describe.each(testDialects())('list exports and the score sort [%s]', (dialect) => {
  let t: TestApp;
  let owner: Account;
  let other: Account;

  /** Every item of a JSON list, following its next links from `query` (100 a page unless it says). */
  async function walk(account: Account, path: string, query: string): Promise<{ items: Body[]; pages: number; total: number }> {
    let url: string | null = `${path}?${query}`;
    const items: Body[] = [];
    let pages = 0;
    let total = 0;
    while (url !== null) {
      const response = await call(t, account, 'GET', url);
      expect(response.statusCode, response.body).toBe(200);
      const list = body(response);
      items.push(...list.data);
      total = list.meta.total;
      pages += 1;
      url = list.links.next === null ? null : pathOf(list.links.next);
    }
    return { items, pages, total };
  }

  async function csv(account: Account, path: string, query: string) {
    const response = await call(t, account, 'GET', `${path}?${query}`);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
    return { response, ...csvObjects(response.body) };
  }

  beforeAll(async () => {
    // No workers: reports made with async=1 stay queued, without a run.
    t = await startTestApp(dialect, { workers: 0 });
    owner = await t.createAccount('exporter');
    other = await t.createAccount('other');
    const handle = createDb(t.config.databaseUrl);
    try {
      const reports = [
        ...Array.from({ length: SEEDED }, (_, n) => seededReport(owner.organization, n)),
        ...Array.from({ length: 5 }, (_, n) => seededReport(other.organization, n)),
      ];
      const projects = new ProjectTally();
      for (const report of reports) projects.add(report);
      await insertReportsBulk(handle.db, reports);
      await insertProjectsBulk(handle.db, projects.rows());
    } finally {
      await handle.destroy();
    }
  }, 120_000);
  afterAll(async () => {
    await t?.close();
  });

  describe('GET /api/v1/reports?format=csv', () => {
    it('answers every report that matches the filters and search, in the list\'s order, page and per_page ignored', async () => {
      const query = 'project=a.example&search=SHOP%2Fitem&sort_by=url&sort=asc';
      const json = await walk(owner, '/api/v1/reports', query);
      // More than one page of the list's largest size.
      expect(json.total).toBeGreaterThan(300);
      expect(json.pages).toBeGreaterThan(3);
      expect(json.items).toHaveLength(json.total);

      const { response, header, rows } = await csv(owner, '/api/v1/reports', `${query}&format=csv&page=2&per_page=10`);
      expect(response.headers['content-disposition']).toBe('attachment; filename="reports.csv"');
      expect(response.headers['cache-control']).toBe('no-store');
      expect(header).toEqual(REPORT_COLUMNS);
      expect(rows.map((row) => Number(row.id))).toEqual(json.items.map((item) => item.id));
      expect(rows).toEqual(json.items.map(expectedRow));
    });

    it('writes a report without a run with empty run cells, and one with a run with its page facts', async () => {
      const { rows } = await csv(owner, '/api/v1/reports', 'format=csv&sort=asc');
      expect(rows).toHaveLength(SEEDED);
      const queued = rows[7];
      expect(queued).toMatchObject({ state: 'queued', result: '', score: '', issues_high: '', page_status_code: '', page_final_url: '', generated_at: '' });
      const redirected = rows[10];
      expect(redirected).toMatchObject({
        url: 'https://b.example/shop/Item-10',
        project: 'b.example',
        privacy: '0',
        password: 'false',
        result: 'decent',
        score: String(50 + (10 % 11)),
        issues_high: '2',
        issues_medium: '0',
        issues_low: '4',
        page_status_code: '404',
        page_final_url: 'https://b.example/shop/Item-10/',
        page_redirects_count: '1',
        page_load_time_ms: '110',
        page_bytes: '20010',
      });
    });

    it('exports by score and by result as the list sorts them', async () => {
      for (const query of ['sort_by=score&sort=desc', 'sort_by=score&sort=asc&result=good', 'sort_by=result&state=done', 'search=blog&sort_by=generated_at']) {
        const json = await walk(owner, '/api/v1/reports', query);
        const { rows } = await csv(owner, '/api/v1/reports', `${query}&format=csv`);
        expect(rows.map((row) => Number(row.id)), query).toEqual(json.items.map((item) => item.id));
      }
    });

    it('lists only the caller\'s reports, and answers a header line alone when none matches', async () => {
      const theirs = await csv(other, '/api/v1/reports', 'format=csv');
      expect(theirs.rows).toHaveLength(5);
      const none = await csv(owner, '/api/v1/reports', 'format=csv&search=nothing-like-this');
      expect(none.response.body).toBe(`${REPORT_COLUMNS.join(',')}\r\n`);
    });

    it('prefixes project names that a spreadsheet would run with \', and quotes cells with commas and quotes', async () => {
      // WHATWG URLs allow =, + and - at the start of a host: the project is the host.
      const account = await t.createAccount('hostile');
      const urls = ['http://=1+2.example/a,b', 'http://-2+3.example/"q"', 'http://+sum.example/x'];
      for (const url of urls) {
        const response = await call(t, account, 'POST', '/api/v1/reports', { url, async: 1 });
        expect(response.statusCode, response.body).toBe(202);
      }
      const { rows } = await csv(account, '/api/v1/reports', 'format=csv&sort=asc');
      expect(rows.map((row) => row.project)).toEqual(["'=1+2.example", "'-2+3.example", "'+sum.example"]);
      expect(rows.map((row) => row.url)).toEqual(['http://=1+2.example/a,b', 'http://-2+3.example/%22q%22', 'http://+sum.example/x']);
      const raw = (await call(t, account, 'GET', '/api/v1/reports?format=csv&sort=asc')).body.split('\r\n');
      expect(raw[1]).toMatch(/^\d+,"http:\/\/=1\+2\.example\/a,b",'=1\+2\.example,0,false,queued,,,/);

      const projects = await csv(account, '/api/v1/projects', 'format=csv&sort_by=project&sort=asc');
      expect(projects.rows.map((row) => row.project)).toEqual(["'+sum.example", "'-2+3.example", "'=1+2.example"]);
    });

    it.each(['xml', 'CSV', 'json,csv', ''])('answers format=%s with a 422 naming format and its allowed values', async (format) => {
      const response = await call(t, owner, 'GET', `/api/v1/reports?format=${encodeURIComponent(format)}`);
      expect(expectInvalid(response, 'format')).toEqual(['The format must be one of: json, csv.']);
    });

    it('validates the other parameters as the JSON list does, answering JSON', async () => {
      expectInvalid(await call(t, owner, 'GET', '/api/v1/reports?format=csv&sort_by=title'), 'sort_by');
      expectInvalid(await call(t, owner, 'GET', '/api/v1/reports?format=csv&per_page=20'), 'per_page');
    });

    it('format=json is the list envelope, as without format', async () => {
      const plain = await call(t, owner, 'GET', '/api/v1/reports?per_page=10');
      const json = await call(t, owner, 'GET', '/api/v1/reports?per_page=10&format=json');
      expectJson(json);
      expect(body(json).data).toEqual(body(plain).data);
    });

    it('needs the API key like any other request', async () => {
      const response = await call(t, null, 'GET', '/api/v1/reports?format=csv');
      expect(response.statusCode).toBe(401);
      expectJson(response);
      expect(body(response)).toEqual(UNAUTHENTICATED);
    });
  });

  describe('GET /api/v1/projects?format=csv', () => {
    it('answers every matching project in the list\'s order, with its counts', async () => {
      for (const query of ['sort_by=project&sort=asc', 'search=A.EX', 'sort_by=created_at&sort=asc&page=3&per_page=10']) {
        const json = await walk(owner, '/api/v1/projects', query.replace(/&page=\d+&per_page=\d+/, ''));
        const { response, header, rows } = await csv(owner, '/api/v1/projects', `${query}&format=csv`);
        expect(response.headers['content-disposition']).toBe('attachment; filename="projects.csv"');
        expect(header).toEqual(PROJECT_COLUMNS);
        expect(rows, query).toEqual(
          json.items.map((project) => ({
            project: project.project,
            reports_count: String(project.reports_count),
            result_counts_good: String(project.result_counts.good),
            result_counts_decent: String(project.result_counts.decent),
            result_counts_bad: String(project.result_counts.bad),
            created_at: project.created_at,
            updated_at: project.updated_at,
          })),
        );
      }
      const { rows } = await csv(owner, '/api/v1/projects', 'format=csv&sort_by=project&sort=asc');
      expect(rows.map((row) => [row.project, row.reports_count])).toEqual([['a.example', '600'], ['b.example', '600']]);
    });

    it('answers a bad format with a 422 naming format', async () => {
      expect(expectInvalid(await call(t, owner, 'GET', '/api/v1/projects?format=pdf'), 'format')).toEqual(['The format must be one of: json, csv.']);
    });
  });

  describe('sort_by=score', () => {
    /** The owner's reports by score in `direction`, ties by id the same way, those without a score last. */
    function byScore(items: Body[], direction: 'asc' | 'desc'): number[] {
      const sign = direction === 'asc' ? 1 : -1;
      const scored = items.filter((item) => item.score !== null).sort((a, b) => sign * (a.score - b.score || a.id - b.id));
      const unscored = items.filter((item) => item.score === null).sort((a, b) => sign * (a.id - b.id));
      return [...scored, ...unscored].map((item) => item.id);
    }

    it.each(['asc', 'desc'] as const)('%s: by score, ties by id, reports without a run last, over every page', async (direction) => {
      const everything = (await walk(owner, '/api/v1/reports', 'sort=asc')).items;
      expect(everything.filter((item) => item.score === null).length).toBeGreaterThan(10);
      const sorted = await walk(owner, '/api/v1/reports', `sort_by=score&sort=${direction}&per_page=50`);
      expect(sorted.items.map((item) => item.id)).toEqual(byScore(everything, direction));
      // The last page ends with the reports without a run.
      expect(sorted.items.at(-1).score).toBeNull();
      expect(sorted.items[0].score).not.toBeNull();
    });

    it.each(['asc', 'desc'] as const)('%s with filters: a result filter never matches a report without a run', async (direction) => {
      for (const filter of ['result=bad', 'project=b.example', 'project=a.example&result=good&search=shop', 'state=queued']) {
        const everything = (await walk(owner, '/api/v1/reports', `${filter}&sort=asc`)).items;
        const sorted = (await walk(owner, '/api/v1/reports', `${filter}&sort_by=score&sort=${direction}&per_page=25`)).items;
        expect(sorted.map((item) => item.id), filter).toEqual(byScore(everything, direction));
      }
    });

    it('keeps sort_by=score in the list links', async () => {
      const list = body(await call(t, owner, 'GET', '/api/v1/reports?sort_by=score&per_page=10'));
      expect(new URL(list.links.next).searchParams.get('sort_by')).toBe('score');
    });
  });
});
