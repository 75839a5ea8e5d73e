// Scheduled crawls and crawl.regressed through the API (docs/crawls.md, "Scheduled crawls"): schedule on
// POST /crawls and PUT /crawls/{id}, at most as often as PAGEGRADE_MIN_SCHEDULE_MINUTES; a due slot
// (the scheduler run on a clock the test sets) starts a crawl with the same settings that takes the
// schedule over; and a crawl that ends worse than the one before it tells webhooks, after crawl.completed.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/api-app.ts';
import { testDialects } from '../support/databases.ts';
import { body, call, expectInvalid, NOT_FOUND, type Account, type Body } from '../support/api-fixtures.ts';
import { html, startSite, type Site } from '../support/site-server.ts';
import { simplePage, startCrawl, untilCrawlEnded } from '../support/crawl-fixtures.ts';
import { startReceiver, type Receiver } from '../support/webhook-receiver.ts';
import { waitFor } from '../queue/engines.ts';
import { openDatabase, type AppDatabase } from '../../src/db/open-database.ts';

const MINUTE_MS = 60_000;
/** Every two minutes: the shortest schedule the app below allows. */
const EVERY_TWO_MINUTES = '*/2 * * * *';

describe.each(testDialects())('scheduled crawls [%s]', (dialect) => {
  let t: TestApp;
  let site: Site;
  let receiver: Receiver;
  let database: AppDatabase;

  beforeAll(async () => {
    // One delivery at a time: the receiver hears events in the order they were sent.
    t = await startTestApp(dialect, { workers: 2, minScheduleMinutes: 2, webhookConcurrency: 1 });
    database = await openDatabase(t.config.databaseUrl);
    site = await startSite({
      '/': html(simplePage('Home of the scheduled site', ['/a', '/b'])),
      '/a': html(simplePage('Page A of the scheduled site', ['/'])),
      '/b': html(simplePage('Page B of the scheduled site', ['/'])),
    });
    receiver = await startReceiver([204]);
  });
  afterAll(async () => {
    await database?.close();
    await t?.close();
    await site?.close();
    await receiver?.close();
  });

  const crawlsOf = async (account: Account): Promise<Body[]> => body(await call(t, account, 'GET', '/api/v1/crawls?sort=asc')).data;

  it('takes a schedule on POST and PUT, refuses one it cannot read or more often than the minimum, and says 405 for the rest', async () => {
    const account = await t.createAccount('schedules');
    const before = Date.now();
    const started = await startCrawl(t, account, { url: site.url('/'), max_pages: 3, schedule: 'Daily' });
    expect(started).toMatchObject({ schedule: 'daily', state: 'queued', trigger: 'create', previous_crawl_id: null });
    expect(Date.parse(started.next_run_at) - before).toBeGreaterThanOrEqual(24 * 60 * MINUTE_MS);
    // It runs at once, as any crawl.
    expect((await untilCrawlEnded(t, account, started.id)).state).toBe('done');
    expect(await startCrawl(t, account, { url: site.url('/'), max_pages: 1 })).toMatchObject({ schedule: 'off', next_run_at: null });

    const total = async () => body(await call(t, account, 'GET', '/api/v1/crawls')).meta.total;
    const stored = await total();
    expect(expectInvalid(await call(t, account, 'POST', '/api/v1/crawls', { url: site.url('/'), schedule: '* * * * *' }), 'schedule')).toEqual([
      'The schedule must not run more often than every 2 minutes; this one runs 1 minutes apart.',
    ]);
    expectInvalid(await call(t, account, 'POST', '/api/v1/crawls', { url: site.url('/'), schedule: 'hourly' }), 'schedule');
    expect(await total()).toBe(stored);

    const path = `/api/v1/crawls/${started.id}`;
    const changed = await call(t, account, 'PUT', path, { schedule: '15 3 * * *' });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(body(changed)).toMatchObject({ status: 200, data: { id: started.id, schedule: '15 3 * * *', state: 'done' } });
    expect(new Date(body(changed).data.next_run_at).getUTCHours()).toBe(3);
    expectInvalid(await call(t, account, 'PUT', path, { schedule: '0 0 30 2 *' }), 'schedule');
    expectInvalid(await call(t, account, 'PUT', path, { schedule: 'x'.repeat(201) }), 'schedule');
    expect(body(await call(t, account, 'GET', path)).data).toMatchObject({ schedule: '15 3 * * *', next_run_at: body(changed).data.next_run_at });
    const off = await t.app.inject({ method: 'PUT', url: path, headers: { ...account.auth, 'content-type': 'application/json' }, payload: { schedule: 'off' } });
    expect(body(off).data).toMatchObject({ schedule: 'off', next_run_at: null });

    const other = await t.createAccount('stranger');
    expect(body(await call(t, other, 'PUT', path, { schedule: 'daily' }))).toEqual(NOT_FOUND);
    expect((await call(t, account, 'PUT', '/api/v1/crawls/abc', { schedule: 'daily' })).statusCode).toBe(404);
    const patch = await call(t, account, 'PATCH', path, { schedule: 'daily' });
    expect(patch.statusCode).toBe(405);
    expect(patch.headers.allow).toBe('GET, PUT, DELETE, HEAD');
  });

  it('starts a due crawl with the same settings, moves the schedule to it, and stops when the newest is set off', async () => {
    const account = await t.createAccount('series');
    // The site notes the request header each crawl sends it: a scheduled crawl sends the same.
    const tokens: string[] = [];
    const staging = await startSite({ '/a': html(simplePage('Page A of the staging site', ['/'])), '/b': html(simplePage('Page B', ['/'])) });
    const home = html(simplePage('Home of the staging site', ['/a', '/b?utm_source=x']));
    staging.route('/', (request, response) => {
      tokens.push(String(request.headers['x-staging-token']));
      home(request, response);
    });
    try {
      const first = await startCrawl(t, account, {
        url: staging.url('/'),
        max_pages: 2,
        max_depth: 1,
        sitemap: 0,
        privacy: 1,
        external: 0,
        exclude: '/private/*',
        strip_params: 'utm_*',
        user_agent: 'mobile',
        headers: 'X-Staging-Token: never-shown-value',
        schedule: EVERY_TWO_MINUTES,
      });
      expect(new Date(first.next_run_at).getUTCMinutes() % 2).toBe(0);
      await untilCrawlEnded(t, account, first.id);
      expect(tokens).toEqual(['never-shown-value']);

      const { crawlSchedules } = t.app.services;
      expect(await crawlSchedules.runDue(new Date(Date.parse(first.next_run_at) - 1))).toBe(0);
      const due = new Date(Date.parse(first.next_run_at) + 1_000);
      expect((await Promise.all([crawlSchedules.runDue(due), crawlSchedules.runDue(due)])).reduce((sum, n) => sum + n, 0)).toBe(1);

      const [earlier, scheduled] = await crawlsOf(account);
      expect(earlier).toMatchObject({ id: first.id, schedule: 'off', next_run_at: null, state: 'done' });
      const settings = ['url', 'project', 'mode', 'max_pages', 'max_depth', 'sitemap', 'privacy', 'render', 'external', 'include', 'exclude', 'strip_params', 'header_names', 'user_agent'];
      for (const field of settings) expect(scheduled[field], field).toEqual(first[field]);
      expect(scheduled).toMatchObject({
        state: 'queued',
        trigger: 'schedule',
        previous_crawl_id: first.id,
        schedule: EVERY_TWO_MINUTES,
        next_run_at: new Date(Date.parse(first.next_run_at) + 2 * MINUTE_MS).toISOString(),
        header_names: ['X-Staging-Token'],
        exclude: ['/private/*'],
        user_agent: 'mobile',
      });
      const sealed = await database.db.selectFrom('crawls').select(['id', 'headers_sealed']).where('id', 'in', [first.id, scheduled.id]).orderBy('id').execute();
      expect(sealed[1].headers_sealed).toBe(sealed[0].headers_sealed);
      expect(sealed[1].headers_sealed).not.toContain('never-shown-value');

      // Queued as POST /crawls queues one: it runs with the same headers, and no answer shows their values.
      const ended = await untilCrawlEnded(t, account, scheduled.id);
      expect(ended).toMatchObject({ state: 'done', pages_crawled: 2 });
      expect(tokens).toEqual(['never-shown-value', 'never-shown-value']);
      const answers = [await call(t, account, 'GET', `/api/v1/crawls/${scheduled.id}`), await call(t, account, 'GET', '/api/v1/crawls')];
      for (const answer of answers) expect(answer.body).not.toContain('never-shown-value');

      expect(body(await call(t, account, 'PUT', `/api/v1/crawls/${scheduled.id}`, { schedule: 'off' })).data).toMatchObject({ schedule: 'off', next_run_at: null });
      expect(await crawlSchedules.runDue(new Date(Date.parse(first.next_run_at) + 60 * MINUTE_MS))).toBe(0);
      expect(await crawlsOf(account)).toHaveLength(2);
    } finally {
      await staging.close();
    }
  });

  it('sends crawl.regressed with the diff after crawl.completed when the site got worse between two crawls', async () => {
    const account = await t.createAccount('regressions');
    const path = `/hook-${account.id}`;
    const webhook = await call(t, account, 'POST', '/api/v1/webhooks', { url: receiver.url(path) });
    expect(webhook.statusCode, webhook.body).toBe(201);
    // "Default all" takes the new event too.
    expect(body(webhook).data.events).toContain('crawl.regressed');
    const events = () => receiver.received.filter((delivery) => delivery.path === path).map((delivery) => JSON.parse(delivery.body));

    const edited = await startSite({
      '/': html(simplePage('Home of the edited site', ['/a'])),
      '/a': html(simplePage('Page A of the edited site', ['/'])),
    });
    try {
      const good = await startCrawl(t, account, { url: edited.url('/'), max_pages: 5 });
      await untilCrawlEnded(t, account, good.id);
      await waitFor(() => events().length === 1, 'the first crawl.completed');
      // A first crawl has nothing to be compared with: no crawl.regressed.
      expect(events().map((event) => event.type)).toEqual(['crawl.completed']);

      edited.route('/', html(simplePage('Home of the edited site', ['/a', '/gone'])));
      const worse = await startCrawl(t, account, { url: edited.url('/'), max_pages: 5 });
      const ended = await untilCrawlEnded(t, account, worse.id);
      expect(ended.state).toBe('done');
      await waitFor(() => events().length >= 3, 'the second crawl.completed and crawl.regressed');
      const [, completed, regressed] = events();
      expect(completed).toMatchObject({ type: 'crawl.completed', data: { id: worse.id, state: 'done' } });
      expect(regressed).toMatchObject({ type: 'crawl.regressed', data: { id: worse.id, state: 'done', diff: { from: { id: good.id }, to: { id: worse.id } } } });
      expect(Date.parse(regressed.timestamp)).toBeGreaterThanOrEqual(Date.parse(completed.timestamp));
      const broken = regressed.data.diff.issues.find((issue: Body) => issue.id === 'broken_links');
      expect(broken).toMatchObject({ importance: 'high' });
      expect(JSON.stringify(broken.new)).toContain('/gone');

      // The same site again: nothing new, nothing worse, no crawl.regressed. Then worse again: the
      // events after it are the next crawl's, so none of its own came between.
      const same = await startCrawl(t, account, { url: edited.url('/'), max_pages: 5 });
      await untilCrawlEnded(t, account, same.id);
      edited.route('/a', html(simplePage('Page A of the edited site', ['/', '/gone-too'])));
      const worseAgain = await startCrawl(t, account, { url: edited.url('/'), max_pages: 5 });
      await untilCrawlEnded(t, account, worseAgain.id);
      await waitFor(() => events().length >= 6, 'the next crawls\' events');
      expect(events().slice(3).map((event) => [event.type, event.data.id])).toEqual([
        ['crawl.completed', same.id],
        ['crawl.completed', worseAgain.id],
        ['crawl.regressed', worseAgain.id],
      ]);
      expect(events()[5].data.diff.from.id).toBe(same.id);
    } finally {
      await edited.close();
    }
  });
});
