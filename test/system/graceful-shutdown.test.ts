// SIGTERM (a 503 while shutting down, docs/api.md "Answers and errors"): the server stops accepting connections, answers requests
// that still arrive on open connections with 503, lets the analyses in flight finish and store their
// reports, closes the database and exits 0; a client that never finishes its request cannot hold the
// exit past the grace period.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { goodPage, startSite, type Site } from '../support/site-server.ts';
import { killServerProcesses, startServerProcess, type ServerProcess } from '../support/server-process.ts';

const ADMIN_KEY = 'pg_graceful-shutdown-test-key-0123456789';
const dirs: string[] = [];
const sites: Site[] = [];
afterEach(async () => {
  killServerProcesses();
  for (const site of sites.splice(0)) await site.close();
});
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

function scratchFile(): string {
  const dir = mkdtempSync(join(tmpdir(), 'pagegrade-shutdown-'));
  dirs.push(dir);
  return join(dir, 'pagegrade.db');
}

async function start(file: string, env: Record<string, string> = {}): Promise<ServerProcess> {
  return startServerProcess({
    DATABASE_URL: `sqlite:${file}`,
    PAGEGRADE_ADMIN_KEY: ADMIN_KEY,
    PAGEGRADE_ALLOW_PRIVATE_URLS: '1',
    LOG_LEVEL: 'silent',
    ...env,
  });
}

/** A site whose /slow page answers only when the test releases it (or never). */
async function slowSite() {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  const site = await startSite({
    '/slow': (_request, response) => {
      void released.then(() => {
        response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        response.end(goodPage());
      });
    },
  });
  sites.push(site);
  return { site, url: site.url('/slow'), release };
}

async function until(condition: () => boolean | Promise<boolean>, what: string): Promise<void> {
  for (let i = 0; i < 1000; i++) {
    if (await condition()) return;
    await new Promise((wait) => setTimeout(wait, 10));
  }
  throw new Error(`timed out waiting until ${what}`);
}

function createReport(server: ServerProcess, url: string) {
  return fetch(`${server.origin}/api/v1/reports`, {
    method: 'POST',
    headers: { authorization: `Bearer ${ADMIN_KEY}`, 'content-type': 'application/json' },
    body: JSON.stringify({ url }),
  }).then(async (response) => ({ status: response.status, body: (await response.json()) as any }));
}

/** A connection that has sent the start of a request but not its end. */
async function openPartialRequest(server: ServerProcess, head: string) {
  const socket: Socket = connect(Number(new URL(server.origin).port), '127.0.0.1');
  let received = '';
  socket.on('data', (chunk) => (received += chunk));
  const ended = new Promise<void>((resolve) => {
    socket.on('close', () => resolve());
    socket.on('error', () => resolve());
  });
  await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
  socket.write(head);
  return {
    finish: (rest: string) => socket.write(rest),
    /** The raw response once the server has closed the connection. */
    response: async () => {
      await ended;
      return received;
    },
    destroy: () => socket.destroy(),
  };
}

function refusesConnections(server: ServerProcess): Promise<boolean> {
  return fetch(`${server.origin}/health`).then(
    () => false,
    (error: { cause?: { code?: string } }) => error.cause?.code === 'ECONNREFUSED',
  );
}

describe('graceful shutdown on SIGTERM', () => {
  it('finishes the analysis in flight, answers 503 meanwhile, closes the database and exits 0', async () => {
    const file = scratchFile();
    const server = await start(file);
    const slow = await slowSite();
    const inFlight = createReport(server, slow.url);
    inFlight.catch(() => {}); // awaited below; a failed assertion before that must not leave it unhandled
    await until(() => slow.site.requests.includes('/slow'), 'the analysis reached the page');
    // A request already begun on an open connection when the shutdown starts.
    const late = await openPartialRequest(server, `GET /api/v1/account HTTP/1.1\r\nHost: test\r\n`);

    server.child.kill('SIGTERM');
    await until(() => refusesConnections(server), 'new connections are refused');
    late.finish(`Authorization: Bearer ${ADMIN_KEY}\r\n\r\n`);
    const raw = await late.response();
    const [head, body] = raw.split('\r\n\r\n');
    expect(head).toMatch(/^HTTP\/1\.1 503 /);
    expect(head).toMatch(/\r\nconnection: close\r\n/i);
    expect(head).toMatch(/\r\nretry-after: \d+\r\n/i);
    expect(head).toMatch(/\r\nx-request-id: [0-9a-f-]{36}\r\n/i);
    expect(JSON.parse(body)).toEqual({ message: expect.stringMatching(/shutting down/), status: 503 });

    slow.release();
    const created = await inFlight;
    expect(created.status).toBe(201);
    expect(await server.exited).toEqual({ code: 0, signal: null });

    // SQLite removes the write-ahead log when its last connection closes cleanly.
    expect(existsSync(`${file}-wal`)).toBe(false);
    const db = new SqliteDatabase(file, { readonly: true });
    try {
      const row = db.prepare('select url from reports where id = ?').get(created.body.data.id) as { url: string } | undefined;
      expect(row?.url).toBe(slow.url);
    } finally {
      db.close();
    }
  });

  it('answers 503, not a reset, to a request sent on an idle kept-alive connection just after SIGTERM', async () => {
    const server = await start(scratchFile());
    const socket: Socket = connect(Number(new URL(server.origin).port), '127.0.0.1');
    let received = '';
    socket.on('data', (chunk) => (received += chunk));
    const closed = new Promise<string | null>((resolve) => {
      socket.on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? 'error'));
      socket.on('close', () => resolve(null));
    });
    await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
    socket.write('GET /health HTTP/1.1\r\nHost: test\r\n\r\n');
    await until(() => received.includes('{"status":"ok"}'), 'the first answer arrived');

    server.child.kill('SIGTERM');
    // Not a fixed pause: on a loaded machine the server may take longer than any pause to act on the
    // signal, and a request it got before then is answered 200. Refused connections mean it is closing.
    await until(() => refusesConnections(server), 'new connections are refused');
    socket.write('GET /health HTTP/1.1\r\nHost: test\r\n\r\n');
    // Before: the server closed the idle connection at once, and this request met a reset.
    expect(await closed).toBeNull();
    const second = received.slice(received.indexOf('{"status":"ok"}') + '{"status":"ok"}'.length);
    expect(second).toMatch(/^HTTP\/1\.1 503 /);
    expect(second).toMatch(/\r\nretry-after: \d+\r\n/i);
    expect(second).toMatch(/\r\nconnection: close\r\n/i);
    expect(await server.exited).toEqual({ code: 0, signal: null });
  });

  it('bounds an analysis in flight by the fetch deadline, answers it, and still exits 0', async () => {
    const server = await start(scratchFile(), { PAGEGRADE_FETCH_TIMEOUT_MS: '1000' });
    const slow = await slowSite();
    const inFlight = createReport(server, slow.url);
    await until(() => slow.site.requests.includes('/slow'), 'the analysis reached the page');
    server.child.kill('SIGTERM');
    // The page never answers: the fetch deadline ends the analysis with a 422, nothing stored.
    const answered = await inFlight;
    expect(answered.status).toBe(422);
    expect(answered.body.errors.url[0]).toMatch(/could not be analysed/);
    expect(await server.exited).toEqual({ code: 0, signal: null });
  });

  it('exits 1 after the grace period when a client never finishes its request', async () => {
    const server = await start(scratchFile(), { PAGEGRADE_FETCH_TIMEOUT_MS: '1000', LOG_LEVEL: 'info' });
    const stuck = await openPartialRequest(
      server,
      `POST /api/v1/reports HTTP/1.1\r\nHost: test\r\nAuthorization: Bearer ${ADMIN_KEY}\r\n` +
        `Content-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"url":`,
    );
    try {
      // Only a request the server has started on holds the shutdown; wait for its log line.
      await until(() => server.stdout().includes('"url":"/api/v1/reports"'), 'the server has the request');
      server.child.kill('SIGTERM');
      expect(await server.exited).toEqual({ code: 1, signal: null });
    } finally {
      stuck.destroy();
    }
  });
});
