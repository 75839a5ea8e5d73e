// GET /api/v1/reports (docs/api.md, "Lists and pagination" and the endpoint): envelope, pagination
// edges, every sort with ties, filters, literal search, and the 422s for values outside the allowed
// sets.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/api-app.ts';
import { testDialects } from '../support/databases.ts';
import { startSite, type Site } from '../support/site-server.ts';
import {
  VERDICTS,
  VERDICT_PAGES,
  VERDICT_RANK,
  atFrozenTime,
  body,
  call,
  codePointCompare,
  createReport,
  expectInvalid,
  expectJson,
  expectedOrder,
  listReports,
  pathOf,
  showReport,
  type Account,
  type Body,
  type Verdict,
} from '../support/api-fixtures.ts';

interface Seed {
  site: 'a' | 'b';
  path: string;
  verdict: Verdict;
  /** created with Date frozen here, so the group shares generated_at */
  frozenAt?: string;
}

const PAST = '2020-01-01T00:00:00.000Z';
const FUTURE = '2099-01-01T00:00:00.000Z';

// 27 reports: 3 pages of 10; duplicate urls, two groups with one generated_at each, and urls that
// only a wildcard reading of %, _ or \ would match.
const SEEDS: Seed[] = [
  { site: 'a', path: '/alpha', verdict: 'good' },
  { site: 'a', path: '/Zeta', verdict: 'bad' },
  { site: 'a', path: '/abc', verdict: 'decent' },
  { site: 'a', path: '/a_c', verdict: 'good' },
  { site: 'a', path: '/100%-pure', verdict: 'bad' },
  { site: 'a', path: '/100x-pure', verdict: 'decent' },
  { site: 'a', path: '/search?q=a\\b', verdict: 'good' },
  { site: 'a', path: '/search?q=ab', verdict: 'good' },
  { site: 'a', path: '/Coffee-Beans', verdict: 'good' },
  { site: 'a', path: '/coffee-grinder', verdict: 'bad' },
  { site: 'a', path: '/alpha', verdict: 'good' },
  { site: 'a', path: '/_under', verdict: 'decent' },
  { site: 'a', path: '/~tilde', verdict: 'bad' },
  { site: 'b', path: '/alpha', verdict: 'decent' },
  { site: 'b', path: '/beta', verdict: 'bad' },
  { site: 'b', path: '/Gamma', verdict: 'good' },
  { site: 'b', path: '/delta', verdict: 'decent' },
  { site: 'b', path: '/p1', verdict: 'good', frozenAt: PAST },
  { site: 'b', path: '/p2', verdict: 'bad', frozenAt: PAST },
  { site: 'b', path: '/p3', verdict: 'decent', frozenAt: PAST },
  { site: 'a', path: '/f1', verdict: 'bad', frozenAt: FUTURE },
  { site: 'a', path: '/f2', verdict: 'good', frozenAt: FUTURE },
  { site: 'a', path: '/f3', verdict: 'decent', frozenAt: FUTURE },
  { site: 'a', path: '/f4', verdict: 'bad', frozenAt: FUTURE },
  { site: 'b', path: '/delta', verdict: 'decent' },
  { site: 'b', path: '/e1', verdict: 'good' },
  { site: 'b', path: '/e2', verdict: 'bad' },
];
const TOTAL = SEEDS.length;

const SORT_KEYS = ['id', 'generated_at', 'url', 'result'] as const;
const DIRECTIONS = ['asc', 'desc'] as const;
const COMPARE: Record<(typeof SORT_KEYS)[number], (a: Body, b: Body) => number> = {
  id: () => 0,
  generated_at: (a, b) => (a.generated_at < b.generated_at ? -1 : a.generated_at > b.generated_at ? 1 : 0),
  url: (a, b) => codePointCompare(a.url, b.url),
  result: (a, b) => VERDICT_RANK[a.result as Verdict] - VERDICT_RANK[b.result as Verdict],
};

function ids(list: Body): number[] {
  return list.data.map((item: Body) => item.id);
}

describe.each(testDialects())('GET /api/v1/reports [%s]', (dialect) => {
  let t: TestApp;
  let siteA: Site;
  let siteB: Site;
  let owner: Account;
  let created: Body[];
  const projectOf = (site: 'a' | 'b') => new URL((site === 'a' ? siteA : siteB).origin).host;

  beforeAll(async () => {
    t = await startTestApp(dialect);
    const routes = (site: 'a' | 'b') =>
      Object.fromEntries(
        SEEDS.filter((seed) => seed.site === site).map((seed) => [seed.path.split('?')[0], VERDICT_PAGES[seed.verdict]]),
      );
    siteA = await startSite(routes('a'));
    siteB = await startSite(routes('b'));
    owner = await t.createAccount('lister');
    created = [];
    for (const seed of SEEDS) {
      const url = (seed.site === 'a' ? siteA : siteB).url(seed.path);
      const make = () => createReport(t, owner, url);
      created.push(seed.frozenAt ? await atFrozenTime(seed.frozenAt, make) : await make());
    }
    // Another account's reports, on the same hosts, must never show up.
    const other = await t.createAccount('other');
    await createReport(t, other, siteA.url('/alpha'));
    await createReport(t, other, siteB.url('/beta'));
  });
  afterAll(async () => {
    await siteA?.close();
    await siteB?.close();
    await t?.close();
  });

  /** The owner's reports as the API lists them (summaries), in id order. */
  async function everything(): Promise<Body[]> {
    const list = await listReports(t, owner, 'sort=asc');
    expect(list.meta.total).toBe(TOTAL);
    return list.data;
  }

  it('the seed has the verdicts, duplicate urls and shared generated_at it relies on', () => {
    expect(created.map((report) => report.result)).toEqual(SEEDS.map((seed) => seed.verdict));
    const frozen = created.filter((_report, index) => SEEDS[index].frozenAt === FUTURE);
    expect(new Set(frozen.map((report) => report.generated_at))).toEqual(new Set([FUTURE]));
    expect(created.filter((report) => report.url === siteA.url('/alpha'))).toHaveLength(2);
  });

  describe('defaults and the envelope', () => {
    it('lists only the caller\'s reports, 100 a page, newest id first, in the list envelope', async () => {
      const response = await call(t, owner, 'GET', '/api/v1/reports', undefined, { host: 'reports.example.test' });
      expect(response.statusCode).toBe(200);
      expectJson(response);
      const list = body(response);
      expect(Object.keys(list).sort()).toEqual(['data', 'links', 'meta', 'status']);
      expect(list.status).toBe(200);
      expect(ids(list)).toEqual(created.map((report) => report.id).sort((a, b) => b - a));
      expect(list.meta).toEqual({
        current_page: 1,
        from: 1,
        last_page: 1,
        path: 'http://reports.example.test/api/v1/reports',
        per_page: 100,
        to: TOTAL,
        total: TOTAL,
      });
      expect(new URL(list.links.first).searchParams.get('page')).toBe('1');
      expect(new URL(list.links.last).searchParams.get('page')).toBe('1');
      expect(list.links.prev).toBeNull();
      expect(list.links.next).toBeNull();
    });

    it('list items are the report without its latest run\'s documents (results, rendered)', async () => {
      const list = await listReports(t, owner);
      const item = list.data.find((entry: Body) => entry.id === created[0].id);
      const { results, rendered, lab, structured_data: structuredData, ...summary } = await showReport(t, owner, created[0].id);
      expect(results).toBeTypeOf('object');
      expect(rendered).toBeNull();
      expect(lab).toBeNull();
      expect(structuredData).toMatchObject({ schema_org_version: '30.0' });
      expect(item).toEqual(summary);
      for (const entry of list.data) {
        expect(entry).not.toHaveProperty('results');
        expect(entry).not.toHaveProperty('rendered');
        expect(entry).not.toHaveProperty('lab');
        expect(entry).not.toHaveProperty('structured_data');
      }
    });

    it('ignores unknown parameters', async () => {
      const plain = await listReports(t, owner);
      const withUnknown = await listReports(t, owner, 'colour=blue&limit=1&offset=5&order=asc');
      expect(ids(withUnknown)).toEqual(ids(plain));
      expect(withUnknown.meta.per_page).toBe(100);
    });

    it('an empty search is no filter', async () => {
      expect((await listReports(t, owner, 'search=')).meta.total).toBe(TOTAL);
    });

    it('an account without reports gets an empty first page', async () => {
      const empty = await t.createAccount('empty');
      const list = await listReports(t, empty);
      expect(list.data).toEqual([]);
      expect(list.meta).toMatchObject({ current_page: 1, from: null, to: null, total: 0, last_page: 1, per_page: 100 });
      expect(list.links.prev).toBeNull();
      expect(list.links.next).toBeNull();
    });
  });

  describe('pagination', () => {
    it.each([10, 25, 50, 100])('per_page=%i is accepted and sizes the page', async (perPage) => {
      const list = await listReports(t, owner, `per_page=${perPage}`);
      expect(list.meta.per_page).toBe(perPage);
      expect(list.data).toHaveLength(Math.min(perPage, TOTAL));
      expect(list.meta.last_page).toBe(Math.ceil(TOTAL / perPage));
    });

    it('first, middle and last page: from, to, prev and next', async () => {
      const first = await listReports(t, owner, 'per_page=10');
      expect(first.meta).toMatchObject({ current_page: 1, from: 1, to: 10, last_page: 3, total: TOTAL, per_page: 10 });
      expect(first.links.prev).toBeNull();
      expect(new URL(first.links.next).searchParams.get('page')).toBe('2');
      expect(new URL(first.links.first).searchParams.get('page')).toBe('1');
      expect(new URL(first.links.last).searchParams.get('page')).toBe('3');

      const middle = await listReports(t, owner, 'per_page=10&page=2');
      expect(middle.meta).toMatchObject({ current_page: 2, from: 11, to: 20, last_page: 3, total: TOTAL });
      expect(new URL(middle.links.prev).searchParams.get('page')).toBe('1');
      expect(new URL(middle.links.next).searchParams.get('page')).toBe('3');

      const last = await listReports(t, owner, 'per_page=10&page=3');
      expect(last.meta).toMatchObject({ current_page: 3, from: 21, to: TOTAL, last_page: 3, total: TOTAL });
      expect(last.data).toHaveLength(TOTAL - 20);
      expect(new URL(last.links.prev).searchParams.get('page')).toBe('2');
      expect(last.links.next).toBeNull();
    });

    it.each([4, 1000])('page %i, past the last one: 200 with no data and from/to null', async (page) => {
      const response = await call(t, owner, 'GET', `/api/v1/reports?per_page=10&page=${page}`);
      expect(response.statusCode).toBe(200);
      const list = body(response);
      expect(list.data).toEqual([]);
      expect(list.meta).toMatchObject({ current_page: page, from: null, to: null, last_page: 3, total: TOTAL, per_page: 10 });
      expect(list.links.next).toBeNull();
      expect(new URL(list.links.last).searchParams.get('page')).toBe('3');
    });

    it('links are absolute, on the request\'s host, and following next gives the next page', async () => {
      const host = { host: 'reports.example.test' };
      const first = body(await call(t, owner, 'GET', '/api/v1/reports?per_page=10', undefined, host));
      for (const link of [first.links.first, first.links.last, first.links.next]) {
        const url = new URL(link);
        expect(`${url.origin}${url.pathname}`).toBe('http://reports.example.test/api/v1/reports');
      }
      const followed = body(await call(t, owner, 'GET', pathOf(first.links.next), undefined, host));
      const direct = body(await call(t, owner, 'GET', '/api/v1/reports?per_page=10&page=2', undefined, host));
      expect(followed).toEqual(direct);
    });

    it('links keep the normalised filters and drop unknown parameters', async () => {
      const project = projectOf('a');
      const query = new URLSearchParams({
        search: 'ALPHA', search_by: 'url', project, result: 'good', sort_by: 'url', sort: 'asc', per_page: '10', colour: 'blue',
      });
      const list = await listReports(t, owner, query.toString());
      expect(list.meta.total).toBe(2);
      for (const link of [list.links.first, list.links.last]) {
        const params = new URL(link).searchParams;
        expect(params.get('search')?.toLowerCase()).toBe('alpha');
        expect(params.get('project')).toBe(project);
        expect(params.get('result')).toBe('good');
        expect(params.get('sort_by')).toBe('url');
        expect(params.get('sort')).toBe('asc');
        expect(params.get('per_page')).toBe('10');
        expect(params.get('search_by') ?? 'url').toBe('url');
        expect(params.has('colour')).toBe(false);
        expect(params.get('page')).toBe('1');
        expect(body(await call(t, owner, 'GET', pathOf(link)))).toEqual(list);
      }
    });

    it('a search with % in it survives the round trip through a link', async () => {
      const list = await listReports(t, owner, `search=${encodeURIComponent('100%')}&per_page=10`);
      expect(new URL(list.links.first).searchParams.get('search')).toBe('100%');
      expect(body(await call(t, owner, 'GET', pathOf(list.links.first)))).toEqual(list);
    });
  });

  describe('sorting: every key and direction, ties broken by id in the same direction', () => {
    it.each(SORT_KEYS.flatMap((key) => DIRECTIONS.map((direction) => [key, direction] as const)))(
      'sort_by=%s&sort=%s: the whole list in order, and pages of 10 that neither overlap nor skip',
      async (key, direction) => {
        const expected = expectedOrder(await everything(), COMPARE[key], direction);
        const whole = await listReports(t, owner, `sort_by=${key}&sort=${direction}`);
        expect(ids(whole)).toEqual(expected);
        const paged: number[] = [];
        for (const page of [1, 2, 3]) {
          paged.push(...ids(await listReports(t, owner, `sort_by=${key}&sort=${direction}&per_page=10&page=${page}`)));
        }
        expect(paged).toEqual(expected);
        const pagedBy25 = [
          ...ids(await listReports(t, owner, `sort_by=${key}&sort=${direction}&per_page=25&page=1`)),
          ...ids(await listReports(t, owner, `sort_by=${key}&sort=${direction}&per_page=25&page=2`)),
        ];
        expect(pagedBy25).toEqual(expected);
      },
    );

    it('sort defaults to desc and sort_by to id', async () => {
      const byId = ids(await listReports(t, owner, 'sort_by=id&sort=desc'));
      expect(ids(await listReports(t, owner, 'sort=desc'))).toEqual(byId);
      expect(ids(await listReports(t, owner, 'sort_by=id'))).toEqual(byId);
    });

    it('sort_by=url is code-point order: upper case before _ before lower case before ~', async () => {
      const project = projectOf('a');
      const list = await listReports(t, owner, `project=${encodeURIComponent(project)}&sort_by=url&sort=asc`);
      const paths = list.data.map((item: Body) => new URL(item.url).pathname);
      const order = ['/Coffee-Beans', '/Zeta', '/_under', '/a_c', '/abc', '/alpha', '/coffee-grinder', '/~tilde'];
      const seen = paths.filter((path: string) => order.includes(path));
      expect([...new Set(seen)]).toEqual(order);
    });

    it('sort_by=result ranks bad < decent < good', async () => {
      const asc = (await listReports(t, owner, 'sort_by=result&sort=asc')).data.map((item: Body) => item.result);
      expect(asc).toEqual([
        ...asc.filter((result: string) => result === 'bad'),
        ...asc.filter((result: string) => result === 'decent'),
        ...asc.filter((result: string) => result === 'good'),
      ]);
      expect(asc[0]).toBe('bad');
      expect(asc[asc.length - 1]).toBe('good');
    });

    it('sort_by=generated_at puts the shared-time groups in id order within the group', async () => {
      const list = await listReports(t, owner, 'sort_by=generated_at&sort=asc');
      const future = created.filter((_report, index) => SEEDS[index].frozenAt === FUTURE).map((report) => report.id);
      const past = created.filter((_report, index) => SEEDS[index].frozenAt === PAST).map((report) => report.id);
      expect(ids(list).slice(0, past.length)).toEqual(past);
      expect(ids(list).slice(-future.length)).toEqual(future);
    });
  });

  describe('filters', () => {
    it.each(VERDICTS)('result=%s lists only reports with that verdict', async (verdict) => {
      const list = await listReports(t, owner, `result=${verdict}`);
      const expected = created.filter((report) => report.result === verdict).map((report) => report.id).reverse();
      expect(expected.length).toBeGreaterThan(0);
      expect(ids(list)).toEqual(expected);
      expect(list.meta.total).toBe(expected.length);
    });

    it('project is the exact project name', async () => {
      for (const site of ['a', 'b'] as const) {
        const list = await listReports(t, owner, `project=${encodeURIComponent(projectOf(site))}`);
        const expected = created.filter((report) => report.project === projectOf(site)).map((report) => report.id).reverse();
        expect(ids(list)).toEqual(expected);
        expect(list.meta.total).toBe(SEEDS.filter((seed) => seed.site === site).length);
      }
    });

    it.each(['127.0.0.1', '127.0.0.1:', 'example.com', '%', '_'])('project=%s (not an exact name) matches nothing', async (project) => {
      const list = await listReports(t, owner, `project=${encodeURIComponent(project)}`);
      expect(list.data).toEqual([]);
      expect(list.meta.total).toBe(0);
    });

    it('filters combine: search, project and result', async () => {
      const list = await listReports(t, owner, `search=alpha&project=${encodeURIComponent(projectOf('a'))}&result=good`);
      expect(ids(list)).toEqual(
        created.filter((report) => report.url === siteA.url('/alpha')).map((report) => report.id).reverse(),
      );
      const none = await listReports(t, owner, `search=alpha&project=${encodeURIComponent(projectOf('a'))}&result=bad`);
      expect(none.meta.total).toBe(0);
    });
  });

  describe('search', () => {
    const matching = (term: string) =>
      created.filter((report) => report.url.toLowerCase().includes(term.toLowerCase())).map((report) => report.id).reverse();

    it.each([
      ['coffee', ['/Coffee-Beans', '/coffee-grinder']],
      ['COFFEE-BEANS', ['/Coffee-Beans']],
      ['gAmMa', ['/Gamma']],
      ['%', ['/100%-pure']],
      ['0%-p', ['/100%-pure']],
      ['_', ['/a_c', '/_under']],
      ['a_c', ['/a_c']],
      ['\\', ['/search?q=a\\b']],
      ['a\\b', ['/search?q=a\\b']],
      ['%_%', []],
    ])('search=%s is a case-insensitive literal substring of the url', async (term, paths) => {
      const list = await listReports(t, owner, `search=${encodeURIComponent(term)}`);
      const expected = matching(term);
      expect(ids(list)).toEqual(expected);
      expect(list.meta.total).toBe(expected.length);
      const found = list.data.map((item: Body) => {
        const url = new URL(item.url);
        return `${url.pathname}${url.search}`;
      });
      expect(new Set(found)).toEqual(new Set(paths));
    });

    it('search_by=url is accepted and is the default', async () => {
      const explicit = await listReports(t, owner, 'search=alpha&search_by=url');
      const implicit = await listReports(t, owner, 'search=alpha');
      expect(ids(explicit)).toEqual(ids(implicit));
      expect(explicit.meta.total).toBe(3);
    });

    it('a search with no match: empty data, total 0', async () => {
      const list = await listReports(t, owner, 'search=nothing-has-this');
      expect(list.data).toEqual([]);
      expect(list.meta).toMatchObject({ total: 0, from: null, to: null, current_page: 1 });
    });
  });

  describe('values outside the allowed sets: 422 naming the parameter and its allowed values', () => {
    const closedSets: [string, string, string[]][] = [
      ['per_page', '20', ['10', '25', '50', '100']],
      ['per_page', '0', ['10', '25', '50', '100']],
      ['per_page', '1000', ['10', '25', '50', '100']],
      ['per_page', 'abc', ['10', '25', '50', '100']],
      ['sort', 'up', ['asc', 'desc']],
      ['sort', 'ascending', ['asc', 'desc']],
      ['sort_by', 'title', ['id', 'generated_at', 'url', 'result']],
      ['sort_by', 'created_at', ['id', 'generated_at', 'url', 'result']],
      ['result', 'great', ['good', 'decent', 'bad']],
      ['result', '1', ['good', 'decent', 'bad']],
      ['search_by', 'title', ['url']],
      ['search_by', 'project', ['url']],
    ];
    it.each(closedSets)('%s=%s', async (parameter, value, allowed) => {
      const response = await call(t, owner, 'GET', `/api/v1/reports?${parameter}=${encodeURIComponent(value)}`);
      const message = expectInvalid(response, parameter).join(' ');
      expect(message).toContain(parameter);
      for (const allowedValue of allowed) expect(message).toContain(allowedValue);
    });

    it.each(['0', '-1', 'abc', '1.5'])('page=%s', async (page) => {
      const message = expectInvalid(await call(t, owner, 'GET', `/api/v1/reports?page=${page}`), 'page').join(' ');
      expect(message).toContain('page');
    });

    it('several invalid parameters are all named at once', async () => {
      const response = await call(t, owner, 'GET', '/api/v1/reports?per_page=20&sort=up&sort_by=title&result=great&search_by=title&page=0');
      for (const parameter of ['per_page', 'sort', 'sort_by', 'result', 'search_by', 'page']) expectInvalid(response, parameter);
    });
  });
});
