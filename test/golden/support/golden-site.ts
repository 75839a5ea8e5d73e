// What the golden tests share: a loopback site whose routes are functions of the request (with a
// fallback for every other path, so an origin can be a soft 404), response helpers that compress
// and encode like real servers, the golden pages on disk, and the analyzer the whole pipeline runs in.
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import zlib from 'node:zlib';
import { createAnalyzer, type Analyzer } from '../../../src/analysis/analyze-url.ts';
import type { Analysis } from '../../../src/analysis/types.ts';
import { DEFAULT_THRESHOLDS } from '../../../src/checks/thresholds.ts';
import type { FetchOptions } from '../../../src/fetch/options.ts';
import { expect } from 'vitest';
import { valueSchemaMismatches } from '../../support/value-schemas.ts';

export type Handler = (request: IncomingMessage, response: ServerResponse) => void;
export type Coding = 'gzip' | 'br' | 'deflate';

export interface GoldenSite {
  /** http://127.0.0.1:<port> */
  origin: string;
  url(path: string): string;
  close(): Promise<void>;
}

const FETCH_OPTIONS: FetchOptions = { timeoutMs: 5000, maxBytes: 5 * 1024 * 1024, userAgent: 'test', allowPrivate: true };

/** The whole pipeline; every analysis it makes is also held to the checks' value schemas. */
export function analyzer(overrides: Partial<FetchOptions> = {}): Analyzer {
  const analyze = createAnalyzer({ fetch: { ...FETCH_OPTIONS, ...overrides }, thresholds: DEFAULT_THRESHOLDS });
  return async (...args) => {
    const analysis = await analyze(...args);
    expect(valueSchemaMismatches(analysis)).toEqual([]);
    return analysis;
  };
}

/** Every check id of docs/checks.md mapped to its `passed`, to compare with an expected table at once. */
export function verdicts(analysis: Analysis): Record<string, boolean | null> {
  return Object.fromEntries(Object.entries(analysis.results).map(([id, result]) => [id, result.passed]));
}

/** A golden page's text, as stored (UTF-8) in ./pages. */
export function goldenPage(name: string): string {
  return readFileSync(new URL(`../pages/${name}.html`, import.meta.url), 'utf8');
}

/**
 * Starts a site on 127.0.0.1. `routes` are matched on the path without the query; every other path
 * goes to `fallback`, which by default answers a proper 404.
 */
export async function startGoldenSite(routes: Record<string, Handler>, fallback: Handler = notFound): Promise<GoldenSite> {
  const server = createServer((request, response) => {
    const path = (request.url ?? '/').split('?')[0];
    (routes[path] ?? fallback)(request, response);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    url: (path) => origin + path,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export interface ResponseOptions {
  status?: number;
  /** An array sends the header once per value. */
  headers?: Record<string, string | string[]>;
  /** Content-Encoding to compress the body with; none by default. */
  coding?: Coding;
}

/** Any body with its Content-Type (and, with `coding`, compressed and labelled so). */
export function respond(body: string | Buffer, contentType: string, options: ResponseOptions = {}): Handler {
  const raw = typeof body === 'string' ? Buffer.from(body, 'utf8') : body;
  const wire = options.coding ? compress(raw, options.coding) : raw;
  const headers: Record<string, string | string[]> = { 'content-type': contentType, ...options.headers };
  if (options.coding) headers['content-encoding'] = options.coding;
  return (_request, response) => {
    response.writeHead(options.status ?? 200, headers);
    response.end(wire);
  };
}

/** An HTML page; the Content-Type says UTF-8 unless `headers` says otherwise. */
export function htmlPage(body: string | Buffer, options: ResponseOptions = {}): Handler {
  return respond(body, 'text/html; charset=utf-8', options);
}

export function redirect(location: string, status = 301): Handler {
  return (_request, response) => {
    response.writeHead(status, { location, 'content-type': 'text/html; charset=utf-8' });
    response.end(`<a href="${location}">moved</a>`);
  };
}

export function notFound(_request: IncomingMessage, response: ServerResponse): void {
  response.writeHead(404, { 'content-type': 'text/html; charset=utf-8' });
  response.end('<!DOCTYPE html><title>Not found</title><h1>Not found</h1>');
}

function compress(bytes: Buffer, coding: Coding): Buffer {
  switch (coding) {
    case 'gzip':
      return zlib.gzipSync(bytes);
    case 'br':
      return zlib.brotliCompressSync(bytes);
    case 'deflate':
      return zlib.deflateSync(bytes);
  }
}

/** Security headers the well-kept site sends, so security_headers passes. */
const SECURITY_HEADERS = { 'content-security-policy': "default-src 'self'", 'x-content-type-options': 'nosniff' };

/**
 * Routes of a well-kept origin serving `page` at `pagePath`: a robots.txt that allows it and names
 * the sitemap, a valid sitemap, an llms.txt, and the security headers (404s come from the default
 * fallback).
 */
export function wellKeptSite(pagePath: string, page: string, options: ResponseOptions = {}): Record<string, Handler> {
  // The port is chosen at start; the Host header the client sent gives the absolute URLs.
  const origin = (request: IncomingMessage) => `http://${request.headers.host}`;
  return {
    '/robots.txt': (request, response) =>
      respond(`User-agent: *\nDisallow: /checkout/\nAllow: /\n\nSitemap: ${origin(request)}/sitemap.xml\n`, 'text/plain')(request, response),
    '/sitemap.xml': (request, response) => respond(sitemapXml(origin(request) + pagePath), 'application/xml')(request, response),
    '/llms.txt': (request, response) =>
      respond(`# Coffee Notes\n\n> Guides to growing, roasting and brewing coffee.\n\n## Guides\n\n- [This page](${origin(request)}${pagePath})\n`, 'text/markdown; charset=utf-8')(request, response),
    [pagePath]: htmlPage(page, { ...options, headers: { ...SECURITY_HEADERS, ...options.headers } }),
  };
}

/** A valid sitemap listing one URL. */
function sitemapXml(pageUrl: string): string {
  return `<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>${pageUrl}</loc></url></urlset>`;
}

/** A tiny ICO header: enough for a favicon that answers 200 with an image type. */
export const FAVICON_BYTES = Buffer.from([0, 0, 1, 0, 1, 0, 16, 16, 0, 0, 1, 0, 32, 0]);
