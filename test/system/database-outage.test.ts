// Found by an attack: database outages. A PostgreSQL connection dropped with queries in flight crashed the
// server (an unhandled 'error' event on a pg client); a database that accepts connections and never
// answers kept the server from starting or exiting for minutes, and /health hung with it. The server
// runs as a child process, as operators run it, so a crash shows as an exit. Outages are staged with
// a TCP relay in front of the shared PostgreSQL (never stopped) or a TCP server that stays silent.
import { spawn } from 'node:child_process';
import { createServer, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createScratchDatabase, TEST_SECRET_KEY, type ScratchDatabase } from '../support/databases.ts';
import { startTcpRelay, throughRelay, type TcpRelay } from '../support/tcp-relay.ts';
import { freePort, killServerProcesses, startServerProcess, type ServerProcess } from '../support/server-process.ts';
import { serverCommand } from '../support/processes.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const ADMIN_KEY = 'pg_database-outage-test-key-0123456789';
const AUTH = { authorization: `Bearer ${ADMIN_KEY}`, accept: 'application/json' };
const postgresUrl = process.env.TEST_DATABASE_URL;

interface Answer {
  status: number;
  retryAfter: string | null;
  body: unknown;
  ms: number;
}

/** A request that gives up after 20 s, so a hanging server fails the test instead of stalling it. */
async function ask(url: string, init: RequestInit = {}): Promise<Answer> {
  const started = performance.now();
  const response = await fetch(url, { ...init, signal: AbortSignal.timeout(20_000) });
  const text = await response.text();
  return { status: response.status, retryAfter: response.headers.get('retry-after'), body: JSON.parse(text), ms: performance.now() - started };
}

async function until(condition: () => Promise<boolean>, what: string, ms = 15_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((wait) => setTimeout(wait, 100));
  }
}

describe('a database that accepts connections and never answers', () => {
  it('stops the server from starting, within the connect timeout, saying why', async () => {
    const sockets = new Set<Socket>();
    const silent = createServer((socket) => sockets.add(socket));
    await new Promise<void>((done) => silent.listen(0, '127.0.0.1', done));
    const port = (silent.address() as AddressInfo).port;
    try {
      const started = performance.now();
      const child = spawn(process.execPath, serverCommand(), {
        cwd: ROOT,
        env: {
          ...process.env,
          DATABASE_URL: `postgres://pagegrade:secret-password@127.0.0.1:${port}/pagegrade`,
          PAGEGRADE_SECRET_KEY: TEST_SECRET_KEY,
          PAGEGRADE_DB_CONNECT_TIMEOUT_MS: '1000',
          HOST: '127.0.0.1',
          PORT: String(await freePort()),
          LOG_LEVEL: 'silent',
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stderr = '';
      child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk));
      const timer = setTimeout(() => child.kill('SIGKILL'), 25_000);
      const code = await new Promise<number | null>((done) => child.once('exit', done));
      clearTimeout(timer);
      // Before: no timeout at all, and the process neither started nor exited for over 200 s.
      expect(code, stderr).toBe(1);
      expect(performance.now() - started).toBeLessThan(25_000);
      expect(stderr).toMatch(
        new RegExp(`could not start: the database at postgres://127\\.0\\.0\\.1:${port}/pagegrade did not answer .*PAGEGRADE_DB_CONNECT_TIMEOUT_MS`),
      );
      expect(stderr).not.toContain('secret-password');
      expect(sockets.size).toBeGreaterThan(0);
    } finally {
      for (const socket of sockets) socket.destroy();
      silent.close();
    }
  });
});

describe.skipIf(!postgresUrl)('PostgreSQL outages through a relay', () => {
  let scratch: ScratchDatabase;
  let relay: TcpRelay;
  let server: ServerProcess;

  beforeAll(async () => {
    scratch = await createScratchDatabase('postgres');
    relay = await startTcpRelay(Number(new URL(postgresUrl!).port || 5432));
    server = await startServerProcess({
      DATABASE_URL: throughRelay(scratch.databaseUrl, relay),
      PAGEGRADE_SECRET_KEY: TEST_SECRET_KEY,
      PAGEGRADE_ADMIN_KEY: ADMIN_KEY,
      PAGEGRADE_DB_CONNECT_TIMEOUT_MS: '1000',
      PAGEGRADE_DB_QUERY_TIMEOUT_MS: '1500',
      LOG_LEVEL: 'silent',
    });
  });
  afterAll(async () => {
    killServerProcesses();
    await relay?.close();
    await scratch?.drop();
  });

  const health = () => ask(`${server.origin}/health`);
  /** A write for a report that does not exist: 404 while the database answers. */
  const update = () =>
    ask(`${server.origin}/api/v1/reports/987654`, {
      method: 'PUT',
      headers: { ...AUTH, 'content-type': 'application/x-www-form-urlencoded' },
      body: 'privacy=1',
    });
  const healthy = async () => (await health()).status === 200;

  it('survives connections dropped with queries in flight: 503 with Retry-After, then recovers', async () => {
    relay.hold();
    const inFlight = Array.from({ length: 30 }, (_, i) => (i % 2 === 0 ? health() : update()));
    await new Promise((wait) => setTimeout(wait, 300)); // the queries are sent and wait at the relay
    await relay.kill();
    const answers = await Promise.all(inFlight);

    // Before: "Connection terminated unexpectedly" as an unhandled 'error' event: the server died.
    expect(server.child.exitCode).toBeNull();
    for (const answer of answers) expect(answer.status).toBe(503);
    for (const answer of answers.filter((_, i) => i % 2 === 1)) {
      expect(answer.body).toEqual({ message: 'The database is not available right now; retry shortly.', status: 503 });
      expect(Number(answer.retryAfter)).toBeGreaterThan(0);
    }
    // Down: refused at once.
    expect((await update()).status).toBe(503);
    expect((await health()).status).toBe(503);

    await relay.restore();
    await until(healthy, '/health to answer 200 after the database came back');
    expect((await update()).status).toBe(404);
    expect(server.child.exitCode).toBeNull();
  });

  it('answers promptly while the database does not answer, and recovers when it does', async () => {
    await until(healthy, 'a healthy start');
    relay.hold();
    const [stalledHealth, stalledUpdate] = await Promise.all([health(), update()]);
    // Before: both waited as long as the database did (here, for ever).
    expect(stalledHealth.status).toBe(503);
    expect(stalledHealth.ms).toBeLessThan(5_000);
    expect(stalledUpdate.status).toBe(503);
    expect(Number(stalledUpdate.retryAfter)).toBeGreaterThan(0);
    expect(stalledUpdate.ms).toBeLessThan(8_000);

    await relay.restore();
    await until(healthy, '/health to answer 200 once the database answers again');
    expect((await update()).status).toBe(404);
  });
});
