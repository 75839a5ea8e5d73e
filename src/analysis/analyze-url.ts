// The whole pipeline for one URL: fetch the page and its origin facts, then analyse.
// Throws FetchError (with a reason for people) when the page cannot be fetched as HTML.
import { fetchPageBody } from '../fetch/fetch-page.ts';
import { decodePage } from '../fetch/decode-page.ts';
import { gatherOriginFacts } from '../fetch/origin-facts.ts';
import type { FetchOptions } from '../fetch/options.ts';
import type { CheckThresholds } from '../checks/thresholds.ts';
import type { CheckFailureLogger } from '../scoring/run-checks.ts';
import type { OriginFacts, UndecodedPage } from '../fetch/types.ts';
import type { Analysis, CrawlLinkOptions } from './types.ts';
import { analyzePage } from './analyze-page.ts';
import type { AnalysisPool, AnalysisTask, TaskCrawlLinks } from './analysis-pool.ts';
import type { BrowserRequests, Renderer } from '../render/renderer.ts';
import type { RenderOutcome } from '../render/render-page.ts';
import type { LabAudit, LabProfileName } from '../lab/lab-types.ts';

export interface AnalyzerOptions {
  fetch: FetchOptions;
  thresholds: CheckThresholds;
  onCheckFailure?: CheckFailureLogger;
  /** Parse and check on these worker threads; without, on the calling thread. */
  pool?: AnalysisPool;
  /** Loads pages in a browser for render=1 and lab=1; without one (no Chromium), both fail with why. */
  renderer?: Renderer | null;
}

interface AnalyzeRequest {
  /** Also load the page in the browser and compare its DOM with the raw HTML (render=1). */
  render?: boolean;
  /** Also make a lab audit of the page in the browser under this profile, after the fetch (lab=1, docs/lab.md). */
  lab?: LabProfileName;
}

export type Analyzer = (url: string, request?: AnalyzeRequest) => Promise<Analysis>;

export function createAnalyzer(options: AnalyzerOptions): Analyzer {
  return async (url, request = {}) => {
    // The browser loads the page beside the fetch (it follows the redirects itself, through the same
    // guard); a page that cannot be fetched stops it.
    const cancelRendering = request.render ? new AbortController() : undefined;
    const rendering = cancelRendering && renderOrSayWhyNot(options.renderer, url, cancelRendering.signal);
    // Origin facts for the requested origin start at once, beside the page fetch; a redirect to
    // another origin gathers that origin's facts instead.
    const requestedOrigin = new URL(url).origin;
    const earlyOriginFacts = gatherOriginFacts(url, options.fetch);
    // Decoded where it is parsed: on an analysis thread when there is a pool (decode-page.ts).
    let page;
    try {
      page = await fetchPageBody(url, options.fetch);
    } catch (error) {
      cancelRendering?.abort();
      throw error;
    }
    // Only now the lab audit: a URL the raw fetch refuses is never loaded in the browser. It loads the
    // report's URL, not the final one: its TTFB counts the redirects, as a visitor waits for them.
    const labAudit = request.lab && labOrSayWhyNot(options.renderer, url, request.lab);
    const finalOrigin = new URL(page.finalUrl).origin;
    const origin =
      finalOrigin === requestedOrigin ? await earlyOriginFacts : await gatherOriginFacts(page.finalUrl, options.fetch);
    const analysis = await analyzeFetched(options, page, origin, { rendering: await rendering, lab: await labAudit });
    return withLabProfile(analysis, request.lab);
  };
}

/** Parses and checks a fetched page: on the pool's threads when there is a pool, else here. */
function analyzeFetched(
  options: AnalyzerOptions,
  page: UndecodedPage,
  origin: OriginFacts,
  extra: Pick<AnalysisTask, 'rendering' | 'lab'> & { crawl?: CrawlLinkOptions },
): Promise<Analysis> | Analysis {
  const generatedAt = new Date();
  if (options.pool) {
    const { rendering, lab, crawl } = extra;
    const task: AnalysisTask = { page, origin, thresholds: options.thresholds, generatedAt, rendering, lab, crawl: crawl && taskCrawlLinks(crawl, origin) };
    return options.pool.analyze(task, options.onCheckFailure);
  }
  return analyzePage(decodePage(page), origin, options.thresholds, options.onCheckFailure, generatedAt, extra.crawl, extra.rendering, extra.lab);
}

/** The profile a lab audit was asked under goes with the analysis, also when the audit failed: a scheduled run repeats it. */
function withLabProfile(analysis: Analysis, profile: LabProfileName | undefined): Analysis {
  return profile === undefined ? analysis : { ...analysis, labProfile: profile };
}

/** The crawl's options for a task: its robots.txt left to the origin facts when they carry the same text. */
function taskCrawlLinks(crawl: CrawlLinkOptions, origin: OriginFacts): TaskCrawlLinks {
  const sameText = crawl.robotsTxt !== null && crawl.robotsTxt === origin.robotsTxt.body;
  return { ...crawl, robotsTxt: sameText ? { ofOrigin: true } : crawl.robotsTxt };
}

function renderOrSayWhyNot(renderer: Renderer | null | undefined, url: string, signal: AbortSignal, requests?: BrowserRequests): Promise<RenderOutcome> {
  if (!renderer) return Promise.resolve({ ok: false, reason: 'Rendering is not available on this server (no Chromium).' });
  return renderer.render(url, signal, requests);
}

/** The lab audit under `profile`, or why there is none; never throws (Renderer.lab does not). */
function labOrSayWhyNot(renderer: Renderer | null | undefined, url: string, profile: LabProfileName, requests?: BrowserRequests): Promise<LabAudit> {
  if (!renderer) return Promise.resolve({ ok: false, reason: 'Lab audits are not available on this server (no Chromium).' });
  return renderer.lab(url, profile, undefined, requests);
}

/**
 * Analyses a page its caller fetched (a crawl's) with the crawl facts: parse and check, with the origin
 * facts given (the crawl read them when it started) or gathered when they are of another origin.
 * `crawl`: which host is the crawl's, the robots.txt it obeys and the cap on recorded links (without:
 * the page's own host, no robots.txt, MAX_CRAWL_LINKS). `requests`: the crawl's User-Agent and request
 * headers (its fetch options, crawl-requests.ts): the browser's requests and any origin facts gathered
 * here go with them, as the crawler's do (without: the server's own). `lab`: a lab audit of the page
 * under this profile too (docs/lab.md), its browser's requests as the rendering's.
 */
export type FetchedPageAnalyzer = (
  page: UndecodedPage,
  knownOrigin?: OriginFacts,
  request?: { render?: boolean; lab?: LabProfileName; crawl?: CrawlLinkOptions; requests?: BrowserRequests },
) => Promise<Analysis>;

/** Distinct link targets of a page a crawl records (docs/crawls.md, "Bounds"). */
const MAX_CRAWL_LINKS = 1_000;

export function createFetchedPageAnalyzer(options: AnalyzerOptions): FetchedPageAnalyzer {
  return async (page, knownOrigin, request = {}) => {
    // The browser loads the page again (its fetch is not the crawler's): what it sees after scripts is
    // compared with the HTML the crawler fetched.
    const { requests } = request;
    const rendering = request.render ? renderOrSayWhyNot(options.renderer, page.finalUrl, new AbortController().signal, requests) : undefined;
    const labAudit = request.lab && labOrSayWhyNot(options.renderer, page.finalUrl, request.lab, requests);
    const pageOrigin = new URL(page.finalUrl).origin;
    const fetchOptions = requests ? { ...options.fetch, userAgent: requests.userAgent, hostHeaders: requests.hostHeaders } : options.fetch;
    const origin = knownOrigin?.origin === pageOrigin ? knownOrigin : await gatherOriginFacts(page.finalUrl, fetchOptions);
    const crawl = request.crawl ?? { host: new URL(page.finalUrl).host, robotsTxt: null, robotsToken: '*', maxLinks: MAX_CRAWL_LINKS };
    const analysis = await analyzeFetched(options, page, origin, { crawl, rendering: await rendering, lab: await labAudit });
    return withLabProfile(analysis, request.lab);
  };
}
