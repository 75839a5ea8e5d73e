// GET /api/v1/projects and DELETE /api/v1/projects/{project} (docs/api.md, "Projects"): a project lives
// exactly as long as the account has reports on its host; list rules as for reports.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/api-app.ts';
import { testDialects } from '../support/databases.ts';
import { startSite, type Site } from '../support/site-server.ts';
import {
  ISO_TIME,
  VERDICT_PAGES,
  atFrozenTime,
  body,
  call,
  codePointCompare,
  createReport,
  expectInvalid,
  expectJson,
  expectNotFound,
  listProjects,
  listReports,
  pathOf,
  showReport,
  type Account,
  type Body,
} from '../support/api-fixtures.ts';

const SITES = 6;
const T0 = '2022-03-01T08:00:00.000Z';
const T1 = '2023-03-01T08:00:00.000Z';

function names(list: Body): string[] {
  return list.data.map((project: Body) => project.project);
}

describe.each(testDialects())('projects [%s]', (dialect) => {
  let t: TestApp;
  let sites: Site[];

  /** The site's url on a host name: 127.0.0.1 or localhost (two projects per site). */
  const urlOn = (site: Site, host: '127.0.0.1' | 'localhost', path: string) => site.url(path).replace('127.0.0.1', host);
  const projectOn = (site: Site, host: '127.0.0.1' | 'localhost') => new URL(urlOn(site, host, '/')).host;

  beforeAll(async () => {
    t = await startTestApp(dialect);
    sites = [];
    for (let i = 0; i < SITES; i += 1) {
      sites.push(await startSite({ '/good': VERDICT_PAGES.good, '/decent': VERDICT_PAGES.decent, '/bad': VERDICT_PAGES.bad }));
    }
  });
  afterAll(async () => {
    for (const site of sites ?? []) await site.close();
    await t?.close();
  });

  describe('life of a project', () => {
    it('appears with the account\'s first report on the host and goes away with its last', async () => {
      const account = await t.createAccount();
      const [site] = sites;
      const project = projectOn(site, '127.0.0.1');
      expect((await listProjects(t, account)).data).toEqual([]);

      const good: Body = await createReport(t, account, site.url('/good'));
      expect(good.project).toBe(project);
      let list = await listProjects(t, account);
      expect(list.data).toHaveLength(1);
      expect(Object.keys(list.data[0]).sort()).toEqual(['created_at', 'project', 'reports_count', 'result_counts', 'updated_at']);
      expect(list.data[0]).toMatchObject({ project, reports_count: 1, result_counts: { good: 1, decent: 0, bad: 0 } });
      expect(list.data[0].created_at).toMatch(ISO_TIME);
      expect(list.data[0].updated_at).toMatch(ISO_TIME);

      const decent: Body = await createReport(t, account, site.url('/decent'));
      const bad: Body = await createReport(t, account, site.url('/bad'));
      expect([decent.result, bad.result]).toEqual(['decent', 'bad']);
      list = await listProjects(t, account);
      expect(list.data).toHaveLength(1);
      expect(list.data[0]).toMatchObject({ project, reports_count: 3, result_counts: { good: 1, decent: 1, bad: 1 } });

      await call(t, account, 'DELETE', `/api/v1/reports/${good.id}`);
      expect((await listProjects(t, account)).data[0]).toMatchObject({ reports_count: 2, result_counts: { good: 0, decent: 1, bad: 1 } });
      await call(t, account, 'DELETE', `/api/v1/reports/${bad.id}`);
      expect((await listProjects(t, account)).data[0]).toMatchObject({ reports_count: 1, result_counts: { good: 0, decent: 1, bad: 0 } });
      await call(t, account, 'DELETE', `/api/v1/reports/${decent.id}`);
      list = await listProjects(t, account);
      expect(list.data).toEqual([]);
      expect(list.meta.total).toBe(0);
      expectNotFound(await call(t, account, 'DELETE', `/api/v1/projects/${encodeURIComponent(project)}`));
    });

    it('a host with a non-default port is named host:port; localhost and 127.0.0.1 are two projects', async () => {
      const account = await t.createAccount();
      const [site] = sites;
      await createReport(t, account, urlOn(site, 'localhost', '/good'));
      await createReport(t, account, site.url('/good'));
      const list = await listProjects(t, account, 'sort_by=project&sort=asc');
      expect(names(list)).toEqual([projectOn(site, '127.0.0.1'), projectOn(site, 'localhost')]);
      expect(names(list)[0]).toMatch(/^127\.0\.0\.1:\d+$/);
    });
  });

  describe('listing', () => {
    let owner: Account;
    /** project names in the order they were created */
    let creationOrder: string[];

    beforeAll(async () => {
      owner = await t.createAccount('projects');
      creationOrder = [];
      // 12 projects: two groups of four created at one instant each (ties in created_at), then four more.
      const hosts = sites.flatMap((site) => (['127.0.0.1', 'localhost'] as const).map((host) => [site, host] as const));
      for (const [index, [site, host]] of hosts.entries()) {
        const make = () => createReport(t, owner, urlOn(site, host, '/good'));
        if (index < 4) await atFrozenTime(T0, make);
        else if (index < 8) await atFrozenTime(T1, make);
        else await make();
        creationOrder.push(projectOn(site, host));
      }
      // A second report on one project must not make it two projects.
      await createReport(t, owner, urlOn(sites[0], 'localhost', '/bad'));
      const other = await t.createAccount('other');
      await createReport(t, other, urlOn(sites[0], 'localhost', '/good'));
    });

    it('defaults: 100 a page, newest first, in the list envelope with absolute links', async () => {
      const response = await call(t, owner, 'GET', '/api/v1/projects', undefined, { host: 'projects.example.test' });
      expect(response.statusCode).toBe(200);
      expectJson(response);
      const list = body(response);
      expect(Object.keys(list).sort()).toEqual(['data', 'links', 'meta', 'status']);
      expect(list.status).toBe(200);
      expect(names(list)).toEqual([...creationOrder].reverse());
      expect(list.meta).toEqual({
        current_page: 1,
        from: 1,
        last_page: 1,
        path: 'http://projects.example.test/api/v1/projects',
        per_page: 100,
        to: 12,
        total: 12,
      });
      expect(list.links.prev).toBeNull();
      expect(list.links.next).toBeNull();
      expect(new URL(list.links.first).searchParams.get('page')).toBe('1');
      expect(list.data.find((project: Body) => project.project === projectOn(sites[0], 'localhost'))).toMatchObject({
        reports_count: 2,
        result_counts: { good: 1, decent: 0, bad: 1 },
      });
    });

    it.each([
      ['created_at', 'asc', () => creationOrder],
      ['created_at', 'desc', () => [...creationOrder].reverse()],
      ['project', 'asc', () => [...creationOrder].sort(codePointCompare)],
      ['project', 'desc', () => [...creationOrder].sort(codePointCompare).reverse()],
    ] as const)('sort_by=%s&sort=%s, whole and in pages of 10 that neither overlap nor skip', async (key, direction, expected) => {
      const whole = await listProjects(t, owner, `sort_by=${key}&sort=${direction}`);
      expect(names(whole)).toEqual(expected());
      const first = await listProjects(t, owner, `sort_by=${key}&sort=${direction}&per_page=10`);
      expect(first.meta).toMatchObject({ current_page: 1, from: 1, to: 10, last_page: 2, total: 12, per_page: 10 });
      const second = body(await call(t, owner, 'GET', pathOf(first.links.next)));
      expect(second.meta).toMatchObject({ current_page: 2, from: 11, to: 12, last_page: 2, total: 12 });
      expect(second.links.next).toBeNull();
      expect([...names(first), ...names(second)]).toEqual(expected());
    });

    it('created_at ties: the four projects made at one instant share created_at', async () => {
      const list = await listProjects(t, owner, 'sort_by=created_at&sort=asc');
      expect(list.data.slice(0, 4).map((project: Body) => project.created_at)).toEqual([T0, T0, T0, T0]);
      expect(list.data.slice(4, 8).map((project: Body) => project.created_at)).toEqual([T1, T1, T1, T1]);
    });

    it('sort_by defaults to created_at and sort to desc', async () => {
      const expected = names(await listProjects(t, owner, 'sort_by=created_at&sort=desc'));
      expect(names(await listProjects(t, owner, 'sort=desc'))).toEqual(expected);
      expect(names(await listProjects(t, owner, 'sort_by=created_at'))).toEqual(expected);
    });

    it.each([10, 25, 50, 100])('per_page=%i is accepted', async (perPage) => {
      const list = await listProjects(t, owner, `per_page=${perPage}`);
      expect(list.meta.per_page).toBe(perPage);
      expect(list.data).toHaveLength(Math.min(perPage, 12));
    });

    it('a page past the last: 200, no data, from/to null', async () => {
      const list = await listProjects(t, owner, 'per_page=10&page=3');
      expect(list.data).toEqual([]);
      expect(list.meta).toMatchObject({ current_page: 3, from: null, to: null, last_page: 2, total: 12 });
      expect(list.links.next).toBeNull();
    });

    it('links keep the normalised filters and drop unknown parameters', async () => {
      const list = await listProjects(t, owner, 'search=LOCALHOST&search_by=project&sort_by=project&sort=asc&per_page=10&colour=red');
      for (const link of [list.links.first, list.links.last]) {
        const params = new URL(link).searchParams;
        expect(params.get('search')?.toLowerCase()).toBe('localhost');
        expect(params.get('sort_by')).toBe('project');
        expect(params.get('sort')).toBe('asc');
        expect(params.get('per_page')).toBe('10');
        expect(params.get('search_by') ?? 'project').toBe('project');
        expect(params.has('colour')).toBe(false);
        expect(body(await call(t, owner, 'GET', pathOf(link)))).toEqual(list);
      }
    });

    it('ignores unknown parameters', async () => {
      expect(names(await listProjects(t, owner, 'colour=red&order=asc'))).toEqual(names(await listProjects(t, owner)));
    });

    describe('search: a case-insensitive literal substring of the name', () => {
      it.each([
        ['LOCALHOST', (name: string) => name.startsWith('localhost:')],
        ['LocalHost:', (name: string) => name.startsWith('localhost:')],
        ['0.0.1:', (name: string) => name.startsWith('127.0.0.1:')],
        ['_', () => false],
        ['%', () => false],
        ['\\', () => false],
        ['%_%', () => false],
        ['127.0.0._', () => false],
        ['nothing-like-this', () => false],
      ])('search=%s', async (term, matches) => {
        const list = await listProjects(t, owner, `search=${encodeURIComponent(term)}&sort_by=created_at&sort=asc`);
        const expected = creationOrder.filter(matches);
        expect(names(list)).toEqual(expected);
        expect(list.meta.total).toBe(expected.length);
      });

      it('a port finds the two projects of that site', async () => {
        const port = new URL(sites[3].origin).port;
        const list = await listProjects(t, owner, `search=${port}&search_by=project&sort_by=project&sort=asc`);
        expect(names(list)).toEqual([projectOn(sites[3], '127.0.0.1'), projectOn(sites[3], 'localhost')]);
      });
    });

    describe('values outside the allowed sets: 422 naming the parameter and its allowed values', () => {
      it.each([
        ['per_page', '20', ['10', '25', '50', '100']],
        ['per_page', 'abc', ['10', '25', '50', '100']],
        ['sort', 'up', ['asc', 'desc']],
        ['sort_by', 'title', ['created_at', 'project']],
        ['sort_by', 'url', ['created_at', 'project']],
        ['sort_by', 'id', ['created_at', 'project']],
        ['search_by', 'title', ['project']],
        ['search_by', 'url', ['project']],
      ])('%s=%s', async (parameter, value, allowed) => {
        const message = expectInvalid(await call(t, owner, 'GET', `/api/v1/projects?${parameter}=${value}`), parameter).join(' ');
        expect(message).toContain(parameter);
        for (const allowedValue of allowed) expect(message).toContain(allowedValue);
      });

      it.each(['0', '-1', 'abc', '1.5'])('page=%s', async (page) => {
        const message = expectInvalid(await call(t, owner, 'GET', `/api/v1/projects?page=${page}`), 'page').join(' ');
        expect(message).toContain('page');
      });
    });
  });

  describe('DELETE /api/v1/projects/{project}', () => {
    it('deletes the project and all of the caller\'s reports in it, answering reports_deleted', async () => {
      const account = await t.createAccount();
      const [site, otherSite] = sites;
      const project = projectOn(site, '127.0.0.1');
      const inProject: Body[] = [
        await createReport(t, account, site.url('/good')),
        await createReport(t, account, site.url('/decent')),
        await createReport(t, account, site.url('/bad')),
      ];
      const elsewhere: Body = await createReport(t, account, otherSite.url('/good'));
      const sameHostOtherName: Body = await createReport(t, account, urlOn(site, 'localhost', '/good'));

      const response = await call(t, account, 'DELETE', `/api/v1/projects/${encodeURIComponent(project)}`);
      expect(response.statusCode, response.body).toBe(200);
      expectJson(response);
      expect(body(response)).toEqual({ project, object: 'project', deleted: true, reports_deleted: 3, status: 200 });

      for (const report of inProject) expectNotFound(await call(t, account, 'GET', `/api/v1/reports/${report.id}`));
      expect(await showReport(t, account, elsewhere.id)).toEqual(elsewhere);
      expect(await showReport(t, account, sameHostOtherName.id)).toEqual(sameHostOtherName);
      expect((await listReports(t, account, `project=${encodeURIComponent(project)}`)).meta.total).toBe(0);
      expect(names(await listProjects(t, account, 'sort_by=project&sort=asc'))).toEqual(
        [elsewhere.project, sameHostOtherName.project].sort(codePointCompare),
      );
      expectNotFound(await call(t, account, 'DELETE', `/api/v1/projects/${encodeURIComponent(project)}`));
    });

    it('accepts the name with its colon not encoded', async () => {
      const account = await t.createAccount();
      const report: Body = await createReport(t, account, sites[1].url('/good'));
      const response = await call(t, account, 'DELETE', `/api/v1/projects/${report.project}`);
      expect(response.statusCode, response.body).toBe(200);
      expect(body(response)).toMatchObject({ project: report.project, reports_deleted: 1 });
    });

    it.each(['example.com', '127.0.0.1', 'nothing%20here', '%25', '_'])('an unknown project (%s): 404', async (name) => {
      const account = await t.createAccount();
      const report: Body = await createReport(t, account, sites[2].url('/good'));
      expectNotFound(await call(t, account, 'DELETE', `/api/v1/projects/${name}`));
      expect(await showReport(t, account, report.id)).toEqual(report);
    });

    it('only the Authorization header is needed', async () => {
      const account = await t.createAccount();
      const report: Body = await createReport(t, account, sites[2].url('/good'));
      const response = await t.app.inject({
        method: 'DELETE',
        url: `/api/v1/projects/${encodeURIComponent(report.project)}`,
        headers: account.auth,
      });
      expect(response.statusCode, response.body).toBe(200);
    });
  });
});
