// Helpers for the crawl tests (test/crawl): a loopback site that records every request it answers
// (path, user agent, when it came and when its answer was done), so a test can count requests per
// URL, measure the gaps between them and the requests in flight at once; and reading a crawl through
// the API (in-process app or a server process) to its end, with every page of its lists.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'vitest';
import type { TestApp } from './api-app.ts';
import { body, call, type Account, type Body } from './api-fixtures.ts';
import type { Handler, Site } from './site-server.ts';
import { waitFor } from '../queue/engines.ts';

/** Wall-clock milliseconds with a fraction: requests a few microseconds long still have a length. */
const now = () => performance.timeOrigin + performance.now();

export interface RecordedRequest {
  path: string;
  userAgent: string;
  /** when the request arrived (ms since the epoch, with a fraction) */
  startedAt: number;
  /** when its answer was done (sent, or the connection closed); null while in flight */
  endedAt: number | null;
  /** the status it was answered with (threaded sites only) */
  status?: number;
}

export interface RecordingSite extends Site {
  /** Every request, in the order they arrived. */
  log: RecordedRequest[];
  /** Requests answered or in flight for `path`. */
  countOf(path: string): number;
  /** Requests per path. */
  counts(): Map<string, number>;
  /** Requests being answered right now. */
  inFlight(): number;
}

/**
 * The requests a page analysis makes besides the page itself, once per origin and process
 * (fetch/origin-facts.ts), and the robots.txt and sitemap a crawl reads when it starts: none of them
 * is a URL of the crawl, so none is held to its per-URL or politeness rules.
 */
export function isAuxPath(path: string, sitemaps: readonly string[] = ['/sitemap.xml']): boolean {
  return ['/robots.txt', '/favicon.ico', '/llms.txt', ...sitemaps].includes(path) || path.startsWith('/pagegrade-404-');
}

/** Like startSite (site-server.ts), recording each request; unknown paths answer a small 404 page. */
export async function startRecordingSite(routes: Record<string, Handler> = {}): Promise<RecordingSite> {
  const table = new Map<string, Handler>(Object.entries(routes));
  const log: RecordedRequest[] = [];
  let open = 0;
  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const path = (request.url ?? '/').split('?')[0];
    const entry: RecordedRequest = { path, userAgent: String(request.headers['user-agent'] ?? ''), startedAt: now(), endedAt: null };
    log.push(entry);
    open++;
    response.once('close', () => {
      entry.endedAt = now();
      open--;
    });
    const handler = table.get(path);
    if (handler) return handler(request, response);
    response.writeHead(404, { 'content-type': 'text/html; charset=utf-8' });
    response.end('<!doctype html><title>Not found</title><h1>Not found</h1>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const origin = `http://127.0.0.1:${port}`;
  const counts = () => {
    const map = new Map<string, number>();
    for (const { path } of log) map.set(path, (map.get(path) ?? 0) + 1);
    return map;
  };
  return {
    origin,
    url: (path) => `${origin}${path}`,
    route: (path, handler) => void table.set(path, handler),
    get requests() {
      return log.map((entry) => entry.path);
    },
    log,
    countOf: (path) => log.filter((entry) => entry.path === path).length,
    counts,
    inFlight: () => open,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** One scripted answer of a threaded site. */
export interface ScriptedAnswer {
  status?: number;
  headers?: Record<string, string>;
  body?: string;
  /** answer this much later */
  delayMs?: number;
}

export interface ThreadedSite {
  origin: string;
  url(path: string): string;
  /** Every request so far, in the order they arrived, timed by the site's own thread. */
  log(): Promise<RecordedRequest[]>;
  close(): Promise<void>;
}

const THREADED_SITE = `
const { createServer } = require('node:http');
const { parentPort, workerData } = require('node:worker_threads');
const now = () => performance.timeOrigin + performance.now();
const log = [];
const seen = new Map();
const server = createServer((request, response) => {
  const path = (request.url || '/').split('?')[0];
  const entry = { path, userAgent: String(request.headers['user-agent'] || ''), startedAt: now(), endedAt: null };
  log.push(entry);
  response.once('close', () => { entry.endedAt = now(); });
  const route = workerData.routes[path];
  const count = (seen.get(path) || 0) + 1;
  seen.set(path, count);
  const answers = route === undefined ? [{ status: 404, body: 'Not found' }] : Array.isArray(route) ? route : [route];
  const answer = answers[Math.min(count, answers.length) - 1];
  entry.status = answer.status || 200;
  const send = () => {
    response.writeHead(answer.status || 200, { 'content-type': 'text/html; charset=utf-8', ...(answer.headers || {}) });
    response.end(answer.body || '');
  };
  if (answer.delayMs) setTimeout(send, answer.delayMs); else send();
});
server.listen(0, '127.0.0.1', () => parentPort.postMessage({ port: server.address().port }));
parentPort.on('message', (message) => {
  if (message === 'log') parentPort.postMessage({ log });
  if (message === 'close') { server.closeAllConnections(); server.close(() => parentPort.postMessage({ closed: true })); }
});
`;

/**
 * A site of scripted answers served from a thread of its own, so the times it records are when
 * requests reached it even while the test's own thread (which runs the crawler in an in-process app)
 * is busy. A route given as a list answers its nth request with the nth answer, the last repeating.
 */
export async function startThreadedSite(routes: Record<string, ScriptedAnswer | ScriptedAnswer[]>): Promise<ThreadedSite> {
  const { Worker } = await import('node:worker_threads');
  const worker = new Worker(THREADED_SITE, { eval: true, workerData: { routes } });
  const next = <T>(key: string) =>
    new Promise<T>((resolve, reject) => {
      const onMessage = (message: Record<string, unknown>) => {
        if (!(key in message)) return;
        worker.off('message', onMessage);
        worker.off('error', reject);
        resolve(message[key] as T);
      };
      worker.on('message', onMessage);
      worker.once('error', reject);
    });
  const port = await next<number>('port');
  const origin = `http://127.0.0.1:${port}`;
  return {
    origin,
    url: (path) => `${origin}${path}`,
    log: () => {
      const answer = next<RecordedRequest[]>('log');
      worker.postMessage('log');
      return answer;
    },
    close: async () => {
      const closed = next<boolean>('closed');
      worker.postMessage('close');
      await closed;
      await worker.terminate();
    },
  };
}

/** Most requests of `entries` the server was answering at one time (intervals [startedAt, endedAt]). */
export function maxOverlap(entries: readonly RecordedRequest[]): number {
  const events: [number, number][] = [];
  for (const entry of entries) {
    events.push([entry.startedAt, 1]);
    events.push([entry.endedAt ?? Number.MAX_SAFE_INTEGER, -1]);
  }
  // At one millisecond, an answer that ended before another began: ends first, so touching is no overlap.
  events.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  let open = 0;
  let most = 0;
  for (const [, step] of events) {
    open += step;
    most = Math.max(most, open);
  }
  return most;
}

/** `handler`, answering `ms` later. */
export function delayed(ms: number, handler: Handler): Handler {
  return (request, response) => void setTimeout(() => handler(request, response), ms);
}

/** A redirect to `location`. */
export function redirect(location: string, status = 301): Handler {
  return (_request, response) => {
    response.writeHead(status, { location });
    response.end();
  };
}

/** A page with a title, a description, a unique paragraph and links (each `[href, attributes?]`). */
export function simplePage(title: string, links: (string | [string, string])[], options: { text?: string; head?: string } = {}): string {
  const anchors = links
    .map((link) => (typeof link === 'string' ? [link, ''] : link))
    .map(([href, attributes]) => `<li><a href="${href}"${attributes ? ` ${attributes}` : ''}>${href}</a></li>`)
    .join('');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title>
<meta name="description" content="About ${title}.">${options.head ?? ''}</head>
<body><h1>${title}</h1><p>${options.text ?? `This page is ${title}.`}</p><ul>${anchors}</ul></body></html>`;
}

// ---- the API, in process ----

const ENDED = ['done', 'failed', 'cancelled'];

export async function startCrawl(t: TestApp, account: Account, fields: Record<string, string | number>): Promise<Body> {
  const started = await call(t, account, 'POST', '/api/v1/crawls', fields);
  expect(started.statusCode, started.body).toBe(202);
  return body(started).data;
}

export async function showCrawl(t: TestApp, account: Account, id: number): Promise<Body> {
  const response = await call(t, account, 'GET', `/api/v1/crawls/${id}`);
  expect(response.statusCode, response.body).toBe(200);
  return body(response).data;
}

export async function untilCrawlEnded(t: TestApp, account: Account, id: number, timeoutMs = 30_000): Promise<Body> {
  let crawl: Body;
  await waitFor(
    async () => {
      crawl = await showCrawl(t, account, id);
      return ENDED.includes(crawl.state);
    },
    `crawl ${id} to end`,
    timeoutMs,
  );
  return crawl!;
}

/** Every row of a paged list (per_page 100). */
export async function everyRow(get: (path: string) => Promise<Body>, path: string): Promise<Body[]> {
  const rows: Body[] = [];
  for (let page = 1; ; page++) {
    const listed = await get(`${path}${path.includes('?') ? '&' : '?'}per_page=100&page=${page}`);
    rows.push(...listed.data);
    if (page >= listed.meta.last_page) return rows;
  }
}

function inProcessGet(t: TestApp, account: Account) {
  return async (path: string) => {
    const response = await call(t, account, 'GET', path);
    expect(response.statusCode, response.body).toBe(200);
    return body(response);
  };
}

export function crawlPages(t: TestApp, account: Account, id: number): Promise<Body[]> {
  return everyRow(inProcessGet(t, account), `/api/v1/crawls/${id}/pages`);
}

export async function crawlIssues(t: TestApp, account: Account, id: number): Promise<Record<string, Body>> {
  const issues = (await inProcessGet(t, account)(`/api/v1/crawls/${id}/issues`)).data as Body[];
  return Object.fromEntries(issues.map((issue) => [issue.id, issue]));
}

export function projectReports(t: TestApp, account: Account, project: string): Promise<Body[]> {
  return everyRow(inProcessGet(t, account), `/api/v1/reports?project=${encodeURIComponent(project)}`);
}

// ---- the API of a server process ----

export interface ProcessApi {
  (method: string, path: string, form?: Record<string, string | number>): Promise<{ status: number; body: Body }>;
  get(path: string): Promise<Body>;
}

/** Requests to a pagegrade server process at `origin` with an API key. */
export function processApi(origin: () => string, key: string): ProcessApi {
  const api = (async (method, path, form) => {
    const response = await fetch(`${origin()}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${key}`,
        accept: 'application/json',
        ...(form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
      },
      body: form ? new URLSearchParams(Object.entries(form).map(([name, value]) => [name, String(value)])).toString() : undefined,
    });
    return { status: response.status, body: (await response.json()) as Body };
  }) as ProcessApi;
  api.get = async (path) => {
    const answer = await api('GET', path);
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    return answer.body;
  };
  return api;
}
