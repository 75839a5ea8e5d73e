// The answers of the report and project lists are kept in memory (src/http/kept-list-bodies.ts) and
// must never show anything older than the account's last committed change, made by this server or by
// another one on the same database, nor anything made for another account or another origin. A second app on the same database stands in for another process:
// its own connection, its own caches.
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDb, type Database } from '../../src/db/database.ts';
import { buildApp } from '../../src/http/app.ts';
import { startTestApp, type TestApp } from '../support/api-app.ts';
import { testDialects } from '../support/databases.ts';
import { goodPage, html, routeFreshGoodPage, startSite, type Site } from '../support/site-server.ts';
import { atFrozenTime, call, createReport, listProjects, listReports, type Body } from '../support/api-fixtures.ts';

const LONG_AGO = '2021-06-01T12:00:00.000Z';

/** Asks twice and gives the second answer: a list's answer is kept on its second ask. */
async function twice<T>(ask: () => Promise<T>): Promise<T> {
  await ask();
  return ask();
}

describe.each(testDialects())('kept list answers [%s]', (dialect) => {
  let t: TestApp;
  /** another server on the same database */
  let other: TestApp;
  let otherApp: FastifyInstance;
  /** the same database written behind the services' backs */
  let raw: { db: Kysely<Database>; destroy(): Promise<void> };
  let site: Site;
  /** a second host, so a second project */
  let elsewhere: Site;
  const freshUrl = () => site.url(routeFreshGoodPage(site));

  /** Changes a report's stored list item without moving the account's reports version. */
  async function rewriteStoredScore(id: number, score: number) {
    const { summary_json } = await raw.db.selectFrom('reports').select('summary_json').where('id', '=', id).executeTakeFirstOrThrow();
    const changed = JSON.stringify({ ...JSON.parse(summary_json), score });
    await raw.db.updateTable('reports').set({ summary_json: changed }).where('id', '=', id).execute();
  }

  beforeAll(async () => {
    t = await startTestApp(dialect);
    otherApp = await buildApp(t.config);
    other = { ...t, app: otherApp };
    raw = createDb(t.config.databaseUrl);
    site = await startSite();
    elsewhere = await startSite();
    elsewhere.route('/', html(goodPage()));
  });
  afterAll(async () => {
    await site?.close();
    await elsewhere?.close();
    await raw?.destroy();
    await otherApp?.close();
    await t?.close();
  });

  it('answers a list again from memory until the account\'s reports change, then reads it anew', async () => {
    const account = await t.createAccount();
    const report: Body = await createReport(t, account, freshUrl());
    // Asked once, an answer is not kept (a one-off list never pushes out another): the next ask reads
    // the rewritten item. That second ask keeps its answer.
    expect((await listReports(t, account)).data.map((item: Body) => item.score)).toEqual([report.score]);
    await rewriteStoredScore(report.id, 7);
    const first = await listReports(t, account);
    expect(first.data.map((item: Body) => item.score)).toEqual([7]);

    await rewriteStoredScore(report.id, 1);
    // Kept: the stored item changed behind the service's back, the version did not move. A parameter
    // the API ignores asks for the same answer.
    expect(await listReports(t, account)).toEqual(first);
    expect(await listReports(t, account, 'unknown=1')).toEqual(first);
    // Without a cache the same database shows the rewritten item at once.
    const uncached = await buildApp({ ...t.config, listCacheMb: 0 });
    try {
      expect((await listReports({ ...t, app: uncached }, account)).data[0].score).toBe(1);
    } finally {
      await uncached.close();
    }

    // Any change through the service moves the version, and the page is read again (the change remade
    // the stored item from the report's columns, so the rewritten score is gone with it).
    const changed = await call(t, account, 'PUT', `/api/v1/reports/${report.id}`, { privacy: 1 });
    expect(changed.statusCode, changed.body).toBe(200);
    expect((await listReports(t, account)).data[0]).toMatchObject({ id: report.id, privacy: 1, score: report.score });
  });

  it('shows at once what another server changed: privacy, a new analysis, new and deleted reports and projects', async () => {
    const account = await t.createAccount();
    const kept: Body = await atFrozenTime(LONG_AGO, () => createReport(t, account, freshUrl()));
    // Every list here is asked twice, so its answer is kept before the next change (kept-values.ts).
    const itemOf = async (id: number) => (await twice(() => listReports(t, account))).data.find((item: Body) => item.id === id);
    expect(await itemOf(kept.id)).toMatchObject({ privacy: 0, generated_at: LONG_AGO });
    expect((await twice(() => listReports(t, account, 'search=page'))).meta.total).toBe(1);
    expect((await twice(() => listProjects(t, account))).meta.total).toBe(1);

    expect((await call(other, account, 'PUT', `/api/v1/reports/${kept.id}`, { privacy: 2, password: 'a long secret' })).statusCode).toBe(200);
    expect(await itemOf(kept.id)).toMatchObject({ privacy: 2, password: true });

    // The same verdict again: no count changes, yet the item shows the new analysis.
    const again = await call(other, account, 'PUT', `/api/v1/reports/${kept.id}`, { results: 1 });
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json().data.result).toBe(kept.result);
    expect((await itemOf(kept.id)).generated_at).toBe(again.json().data.generated_at);

    const added: Body = await createReport(other, account, freshUrl());
    const gone: Body = await createReport(other, account, elsewhere.url('/'));
    const afterCreates = await twice(() => listReports(t, account));
    expect(afterCreates.data.map((item: Body) => item.id)).toEqual([gone.id, added.id, kept.id]);
    expect((await twice(() => listReports(t, account, 'search=page'))).meta.total).toBe(2);
    expect((await twice(() => listProjects(t, account))).data.map((project: Body) => project.project).sort()).toEqual(
      [gone.project, kept.project].sort(),
    );

    expect((await call(other, account, 'DELETE', `/api/v1/reports/${added.id}`)).statusCode).toBe(200);
    expect((await twice(() => listReports(t, account))).data.map((item: Body) => item.id)).toEqual([gone.id, kept.id]);
    expect((await call(other, account, 'DELETE', `/api/v1/projects/${encodeURIComponent(gone.project)}`)).statusCode).toBe(200);
    expect((await twice(() => listReports(t, account))).data.map((item: Body) => item.id)).toEqual([kept.id]);
    expect((await twice(() => listProjects(t, account))).data.map((project: Body) => project.project)).toEqual([kept.project]);
  });

  it('keeps answers for each origin and path apart: their links name them', async () => {
    const account = await t.createAccount();
    await createReport(t, account, freshUrl());
    const selfOf = async (url: string, host: string) => {
      const response = await call(t, account, 'GET', url, undefined, { host });
      expect(response.statusCode, response.body).toBe(200);
      const first = new URL(response.json().links.first as string);
      return `${first.origin}${first.pathname}`;
    };
    // Three rounds: the first ask of each is remembered, the second kept, the third answered from memory.
    for (let round = 0; round < 3; round++) {
      expect(await selfOf('/api/v1/reports', 'a.example')).toBe('http://a.example/api/v1/reports');
      expect(await selfOf('/api/v1/reports', 'b.example:8080')).toBe('http://b.example:8080/api/v1/reports');
      expect(await selfOf('/api/v1/reports/', 'a.example')).toBe('http://a.example/api/v1/reports/');
      expect(await selfOf('/api/v1/projects', 'a.example')).toBe('http://a.example/api/v1/projects');
    }
  });

  it('keeps each account\'s pages apart, even at the same version and query', async () => {
    const first = await t.createAccount();
    const second = await t.createAccount();
    const mine: Body = await createReport(t, first, freshUrl());
    const theirs: Body = await createReport(t, second, freshUrl());
    for (let round = 0; round < 3; round++) {
      expect((await listReports(t, first)).data.map((item: Body) => item.id)).toEqual([mine.id]);
      expect((await listReports(t, second)).data.map((item: Body) => item.id)).toEqual([theirs.id]);
    }
  });
});
