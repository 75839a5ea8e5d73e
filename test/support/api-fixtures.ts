// Helpers for the HTTP API tests (test/api): requests shaped like the interface document's (form
// bodies, Accept: application/json), pages with a known verdict, and the contract's recurring checks.
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import type { LightMyRequestResponse } from 'fastify';
import { expect, vi } from 'vitest';
import type { TestApp } from './api-app.ts';
import { goodPage, html, type Handler } from './site-server.ts';

export type Account = Awaited<ReturnType<TestApp['createAccount']>>;
export type Response = LightMyRequestResponse;
// Response bodies are checked field by field against docs/api.md, so a loose type is the honest one.
export type Body = any;

export const NOT_FOUND = { message: 'Resource not found.', status: 404 } as const;
export const UNAUTHENTICATED = {
  message: 'Unauthenticated.',
  hint: 'Send your API key in the Authorization header: Authorization: Bearer <key>.',
  status: 401,
} as const;
export const VERDICTS = ['good', 'decent', 'bad'] as const;
export type Verdict = (typeof VERDICTS)[number];
export const VERDICT_RANK: Record<Verdict, number> = { bad: 0, decent: 1, good: 2 };

/** ISO-8601 UTC with milliseconds (docs/api.md "Answers and errors"). */
export const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/** A page that fails most checks: a score far below 50. */
export const BAD_PAGE = `<html><head><meta name="robots" content="noindex,nofollow"></head>
<body style="color:red"><font>x</font><center>y</center><h3>a</h3><h1></h1><h1></h1>
<img src="a.bmp"><img src="http://x.test/b.gif"><a href="javascript:void(0)">click here</a><a href="#">here</a>
<form action="http://x.test/f" method="post"><input name=p></form><script src="a.js"></script><script src="b.js"></script>
<p style="x">mail me at someone@example.com</p></body></html>`;

/** A well-made page search engines are told not to index: a high score capped at decent (docs/checks.md). */
const DECENT_PAGE = goodPage().replace('</head>', '<meta name="robots" content="noindex"></head>');

/** Site handlers whose reports get each verdict. */
export const VERDICT_PAGES: Record<Verdict, Handler> = {
  good: html(goodPage()),
  decent: html(DECENT_PAGE),
  bad: html(BAD_PAGE),
};

export function formBody(fields: Record<string, string | number>): string {
  return new URLSearchParams(Object.entries(fields).map(([key, value]) => [key, String(value)])).toString();
}

/**
 * A request as the interface document sends it: Authorization always, Accept: application/json on
 * reads, and a form-encoded body when fields are given.
 */
export function call(
  t: TestApp,
  account: Account | null,
  method: 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH',
  url: string,
  fields?: Record<string, string | number>,
  headers: Record<string, string> = {},
): Promise<Response> {
  const base: Record<string, string> = { ...(account ? account.auth : {}) };
  if (method === 'GET') base.accept = 'application/json';
  if (fields === undefined) return t.app.inject({ method, url, headers: { ...base, ...headers } });
  return t.app.inject({
    method,
    url,
    headers: { ...base, 'content-type': 'application/x-www-form-urlencoded', ...headers },
    payload: formBody(fields),
  });
}

export function body(response: Response): Body {
  return response.json();
}

export function expectJson(response: Response): void {
  expect(response.headers['content-type']).toMatch(/^application\/json; charset=utf-8$/i);
}

/** A 422 in the contract's shape; returns the messages for the field. */
export function expectInvalid(response: Response, field: string): string[] {
  expect(response.statusCode, response.body).toBe(422);
  expectJson(response);
  const parsed = body(response);
  expect(parsed.message).toBe('The given data was invalid.');
  expect(parsed.status).toBe(422);
  expect(parsed.errors, `errors should name ${field}: ${response.body}`).toHaveProperty([field]);
  const messages = parsed.errors[field];
  expect(Array.isArray(messages) && messages.length > 0).toBe(true);
  for (const message of messages) expect(typeof message).toBe('string');
  return messages as string[];
}

export function expectNotFound(response: Response): void {
  expect(response.statusCode, response.body).toBe(404);
  expectJson(response);
  expect(body(response)).toEqual(NOT_FOUND);
}

export async function createReport(
  t: TestApp,
  account: Account,
  url: string,
  fields: Record<string, string | number> = {},
): Promise<Body> {
  const response = await call(t, account, 'POST', '/api/v1/reports', { url, ...fields });
  expect(response.statusCode, response.body).toBe(201);
  // As GET /api/v1/reports/{id} shows it: duplicate_of is the create answer's alone (test/api/report-duplicates.test.ts).
  const { duplicate_of: _duplicateOf, ...report } = body(response).data;
  return report;
}

export async function listReports(t: TestApp, account: Account, query = ''): Promise<Body> {
  const response = await call(t, account, 'GET', `/api/v1/reports${query ? `?${query}` : ''}`);
  expect(response.statusCode, response.body).toBe(200);
  return body(response);
}

export async function listProjects(t: TestApp, account: Account, query = ''): Promise<Body> {
  const response = await call(t, account, 'GET', `/api/v1/projects${query ? `?${query}` : ''}`);
  expect(response.statusCode, response.body).toBe(200);
  return body(response);
}

export async function showReport(t: TestApp, account: Account, id: number): Promise<Body> {
  const response = await call(t, account, 'GET', `/api/v1/reports/${id}`);
  expect(response.statusCode, response.body).toBe(200);
  return body(response).data;
}

/** Path and query of an absolute link, to follow it with inject. */
export function pathOf(link: string): string {
  const url = new URL(link);
  return `${url.pathname}${url.search}`;
}

/** A URL on 127.0.0.1 where nothing listens: a port taken, then released. */
export async function refusedUrl(path = '/'): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}${path}`;
}

/**
 * Runs `work` with Date frozen at one instant, so every report or project it creates has the same
 * timestamps: the way to get ties in generated_at and created_at. Only Date is faked; timers run.
 */
export async function atFrozenTime<T>(instant: string, work: () => Promise<T>): Promise<T> {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(new Date(instant));
  try {
    return await work();
  } finally {
    vi.useRealTimers();
  }
}

/** Ids in the order of `compare`, then by id in the same direction (docs/api.md: ties break by id). */
export function expectedOrder<T extends { id: number }>(
  items: T[],
  compare: (a: T, b: T) => number,
  direction: 'asc' | 'desc',
): number[] {
  const sign = direction === 'asc' ? 1 : -1;
  return [...items].sort((a, b) => sign * (compare(a, b) || a.id - b.id)).map((item) => item.id);
}

/** Code-point comparison (what docs/api.md asks for url and project names), not locale collation. */
export function codePointCompare(a: string, b: string): number {
  const left = [...a].map((c) => c.codePointAt(0) as number);
  const right = [...b].map((c) => c.codePointAt(0) as number);
  for (let i = 0; i < Math.min(left.length, right.length); i += 1) {
    if (left[i] !== right[i]) return left[i] - right[i];
  }
  return left.length - right.length;
}
