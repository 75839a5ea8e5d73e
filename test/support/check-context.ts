// Builders for the smallest inputs a check test needs. Every field has a neutral default so a
// test states only what it is about.
import type { FetchedPage, OriginFacts, AuxResponse } from '../../src/fetch/types.ts';
import { PageText } from '../../src/fetch/page-text.ts';
import type { PageSnapshot } from '../../src/parse/page-snapshot.ts';
import type { CheckContext } from '../../src/checks/check.ts';
import { DEFAULT_THRESHOLDS } from '../../src/checks/thresholds.ts';

/** A fetched page's fields, its HTML as a plain string. */
type PageOverrides = Partial<Omit<FetchedPage, 'html'>> & { html?: string };

function makePage({ html, ...overrides }: PageOverrides = {}): FetchedPage {
  const url = overrides.finalUrl ?? 'https://example.com/page';
  return {
    requestedUrl: url,
    finalUrl: url,
    redirects: [],
    statusCode: 200,
    xRobotsTag: [],
    headers: { 'content-type': 'text/html; charset=utf-8' },
    contentType: 'text/html; charset=utf-8',
    mimeType: 'text/html',
    charset: 'utf-8',
    charsetSource: 'header',
    metaCharsetInFirst1024Bytes: false,
    contentEncoding: null,
    httpVersion: '1.1',
    transferredBytes: 1000,
    bodyBytes: 1000,
    html: PageText.of(html ?? '<!doctype html><html><head><title>t</title></head><body></body></html>'),
    ttfbMs: 50,
    totalMs: 100,
    ...overrides,
  };
}

export function makeAux(url: string, overrides: Partial<AuxResponse> = {}): AuxResponse {
  return {
    url,
    statusCode: 404,
    finalUrl: url,
    redirected: false,
    contentType: 'text/html',
    body: null,
    error: null,
    ...overrides,
  };
}

function makeOrigin(overrides: Partial<OriginFacts> = {}): OriginFacts {
  const origin = overrides.origin ?? 'https://example.com';
  return {
    origin,
    robotsTxt: makeAux(`${origin}/robots.txt`),
    notFoundProbe: makeAux(`${origin}/pagegrade-404-probe`),
    faviconIco: makeAux(`${origin}/favicon.ico`),
    llmsTxt: makeAux(`${origin}/llms.txt`),
    sitemap: null,
    http2: null,
    ...overrides,
  };
}

export function makeSnapshot(overrides: Partial<PageSnapshot> = {}): PageSnapshot {
  return {
    htmlLength: 1000,
    doctype: { raw: '!DOCTYPE html', standardsMode: true },
    htmlLang: 'en',
    baseHref: null,
    baseUrl: 'https://example.com/page',
    titles: [],
    titlesOutsideHead: 0,
    metas: [],
    linkTags: [],
    headings: [],
    anchors: [],
    images: [],
    scripts: [],
    resources: [],
    forms: [],
    jsonLd: [],
    microdataTypes: [],
    rdfaTypes: [],
    structured: { present: false, formats: [], items: [], problems: [], byId: new Map() },
    inlineStyleCount: 0,
    deprecatedTags: {},
    elementCount: 10,
    maxDepth: 3,
    duplicateIds: [],
    text: { wordCount: 0, charCount: 0, words: new Set(), emails: [] },
    mailtoEmails: [],
    ...overrides,
  };
}

export interface ContextOverrides {
  page?: PageOverrides;
  origin?: Partial<OriginFacts>;
  snapshot?: Partial<PageSnapshot>;
  robots?: CheckContext['robots'];
  thresholds?: Partial<CheckContext['thresholds']>;
}

export function makeContext(overrides: ContextOverrides = {}): CheckContext {
  return {
    page: makePage(overrides.page),
    origin: makeOrigin(overrides.origin),
    snapshot: makeSnapshot(overrides.snapshot),
    robots: overrides.robots ?? null,
    thresholds: { ...DEFAULT_THRESHOLDS, ...overrides.thresholds },
  };
}
