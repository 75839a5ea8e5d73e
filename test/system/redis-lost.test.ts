// A Redis that restarts empty loses no report (docs/production.md, "When the queue loses jobs"), as
// separate processes on PostgreSQL and a redis-server of the test's own without persistence: a server
// that only takes requests and two `pagegrade worker` processes. 30 slow background reports are all
// done after the Redis is SIGKILLed and started again empty, no page fetched more than twice; and with
// no worker running, results=1 on a report whose job went the same way is answered with a new run,
// not a 409, once the lease has passed.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createConnection } from 'node:net';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { createScratchDatabase, type ScratchDatabase } from '../support/databases.ts';
import { freePort } from '../support/server-process.ts';
import { goodPage, startSite, type Site } from '../support/site-server.ts';
import { callApi, killProcess, newApiKey, startServerProcess, startWorkerProcess, stopAll, type PagegradeProcess, type ServerProcess } from '../support/processes.ts';
import { sleep, waitFor } from '../queue/engines.ts';

const LEASE_MS = 5_000;
const PAGE_MS = 3_000;

const redisServerInstalled = spawnSync('redis-server', ['--version']).status === 0;
const required = process.env.PAGEGRADE_REQUIRE_REDIS === '1';
if (required && !(process.env.TEST_DATABASE_URL && redisServerInstalled)) {
  throw new Error('PAGEGRADE_REQUIRE_REDIS=1, but TEST_DATABASE_URL is not set or redis-server is not installed');
}
const available = Boolean(process.env.TEST_DATABASE_URL) && redisServerInstalled;

/** A redis-server that keeps nothing on disk: SIGKILLed and started again, it is empty. */
function redisOnPort(port: number) {
  let child: ChildProcess | undefined;
  const answers = () =>
    new Promise<boolean>((resolveAnswer) => {
      const socket = createConnection({ host: '127.0.0.1', port });
      socket.once('connect', () => socket.write('PING\r\n'));
      socket.once('data', (data) => {
        socket.destroy();
        resolveAnswer(data.toString().startsWith('+PONG'));
      });
      socket.once('error', () => resolveAnswer(false));
    });
  return {
    url: `redis://127.0.0.1:${port}`,
    async start() {
      child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
      await waitFor(answers, 'redis-server to answer', 10_000);
    },
    async kill() {
      const exited = new Promise((done) => child!.once('exit', done));
      child!.kill('SIGKILL');
      await exited;
      child = undefined;
    },
    stop() {
      child?.kill('SIGKILL');
    },
  };
}

describe.skipIf(!available)('a Redis restarted empty, on PostgreSQL with two workers', () => {
  let scratch: ScratchDatabase | undefined;
  let site: Site | undefined;
  let redis: ReturnType<typeof redisOnPort> | undefined;
  const adminKey = newApiKey();

  afterEach(async () => {
    stopAll();
    redis?.stop();
    await site?.close();
    await scratch?.drop();
    site = scratch = redis = undefined;
  });
  afterAll(() => {
    stopAll();
    redis?.stop();
  });

  const api = (server: ServerProcess, method: string, path: string, form?: Record<string, string>) => callApi(server, adminKey, method, path, form);

  const countInState = async (server: ServerProcess, state: string): Promise<number> =>
    (await api(server, 'GET', `/api/v1/reports?state=${state}&per_page=10`)).body.meta.total;

  it('30 slow reports are all done, each page fetched at most twice; then results=1 on a lost report is a new run', { timeout: 240_000 }, async () => {
    scratch = await createScratchDatabase('postgres');
    redis = redisOnPort(await freePort());
    await redis.start();
    const env = {
      DATABASE_URL: scratch.databaseUrl,
      REDIS_URL: redis.url,
      PAGEGRADE_SECRET_KEY: randomBytes(32).toString('base64url'),
      PAGEGRADE_ADMIN_KEY: adminKey,
      PAGEGRADE_ALLOW_PRIVATE_URLS: '1',
      PAGEGRADE_RATE_LIMIT: '100000',
      PAGEGRADE_MAX_ANALYSES_PER_ACCOUNT: '1000',
      PAGEGRADE_JOB_LEASE_MS: String(LEASE_MS),
    };
    site = await startSite();
    const fetched = new Map<string, number>();
    const route = (path: string) => {
      fetched.set(path, 0);
      site!.route(path, (_request, response) => {
        fetched.set(path, fetched.get(path)! + 1);
        setTimeout(() => response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(goodPage()), PAGE_MS);
      });
    };
    const paths = Array.from({ length: 30 }, (_, index) => `/slow-${index}`);
    paths.forEach(route);

    const server = await startServerProcess({ ...env, PAGEGRADE_WORKERS: '0' });
    const workers: PagegradeProcess[] = await Promise.all([startWorkerProcess(env, 4), startWorkerProcess(env, 4)]);
    for (const path of paths) {
      const created = await api(server, 'POST', '/api/v1/reports', { url: site.url(path), async: '1' });
      expect(created.status, JSON.stringify(created.body)).toBe(202);
    }
    // Eight pages are being fetched (both workers full) and 22 jobs wait in Redis when it goes.
    await waitFor(() => [...fetched.values()].filter((count) => count > 0).length >= 8, 'both workers to be busy', 30_000);
    await redis.kill();
    await redis.start();
    expect(await countInState(server, 'done')).toBeLessThan(30);

    await waitFor(async () => (await countInState(server, 'done')) === 30, 'all 30 reports to be done', 180_000);
    expect(await countInState(server, 'failed')).toBe(0);
    const overFetched = [...fetched].filter(([, count]) => count > 2);
    expect(overFetched, JSON.stringify([...fetched])).toEqual([]);

    // No worker runs: a report's job waits in Redis, and goes with it.
    await Promise.all(workers.map(killProcess));
    route('/lost');
    const queued = await api(server, 'POST', '/api/v1/reports', { url: site.url('/lost'), async: '1' });
    expect(queued.status, JSON.stringify(queued.body)).toBe(202);
    const id = queued.body.data.id as number;
    const queuedAt = Date.now();
    const conflict = await api(server, 'PUT', `/api/v1/reports/${id}`, { results: '1' });
    expect(conflict.status, JSON.stringify(conflict.body)).toBe(409);
    await redis.kill();
    await redis.start();
    await sleep(queuedAt + LEASE_MS + 1_000 - Date.now());
    const answered = await api(server, 'PUT', `/api/v1/reports/${id}`, { results: '1' });
    expect(answered.status, JSON.stringify(answered.body)).toBe(200);
    expect(answered.body.data).toMatchObject({ state: 'done', runs_count: 1, result: 'good' });
    expect(fetched.get('/lost')).toBe(1);
  });
});
