// The pure half of the pipeline: fetched facts in, scored analysis out (parse -> checks -> score).
// No I/O, so the engine benchmark and the tests run it on pages held in memory.
import type { FetchedPage, OriginFacts } from '../fetch/types.ts';
import type { CheckThresholds } from '../checks/thresholds.ts';
import type { Analysis, CrawlLinkOptions, PageFacts } from './types.ts';
import { parsePage } from '../parse/parse-page.ts';
import { parsedRobotsTxt } from '../robots/parsed-robots.ts';
import { allChecks } from '../checks/index.ts';
import { runChecks, type CheckFailureLogger } from '../scoring/run-checks.ts';
import { scoreResults } from '../scoring/score.ts';
import { crawlFactsOf } from './crawl-facts.ts';
import { renderedComparison } from '../render/compare-rendered.ts';
import type { RenderOutcome } from '../render/render-page.ts';
import type { LabAudit } from '../lab/lab-types.ts';
import { labSummary } from './lab-summary.ts';
import { judgeStructuredData } from '../structured/judge.ts';
import { structuredDataReport } from '../structured/structured-data-report.ts';
import { schemaOrg } from '../structured/vocabulary.ts';

function pageFacts(page: FetchedPage): PageFacts {
  return {
    final_url: page.finalUrl,
    status_code: page.statusCode,
    redirects: page.redirects.map((hop) => ({ url: hop.url, status_code: hop.statusCode })),
    content_type: page.contentType,
    charset: page.charset,
    http_version: page.httpVersion,
    bytes: page.transferredBytes,
    load_time_ms: Math.round(page.totalMs),
  };
}

export function analyzePage(
  page: FetchedPage,
  origin: OriginFacts,
  thresholds: CheckThresholds,
  onCheckFailure?: CheckFailureLogger,
  generatedAt: Date = new Date(),
  /** A crawl's page: its compact facts are kept too, its links taken as the crawl asks (crawl-facts.ts). */
  crawl?: CrawlLinkOptions,
  /** With render=1: the page as the browser left it (its DOM goes through the same parsePage), or why not. */
  rendering?: RenderOutcome,
  /** With lab=1: what the lab audit measured, or why it could not observe the page (docs/lab.md). */
  lab?: LabAudit,
): Analysis {
  const snapshot = parsePage(page.html, page.finalUrl);
  const robotsTxt = origin.robotsTxt;
  // Parsed once per thread and text (parsed-robots.ts): every page of a crawl shares its origin's file.
  const robots = robotsTxt.statusCode === 200 && robotsTxt.body !== null ? parsedRobotsTxt(robotsTxt.body) : null;
  const rendered = rendering && renderedComparison(snapshot, rendering, page.finalUrl);
  const results = runChecks(allChecks, { page, origin, snapshot, robots, thresholds, rendered, lab }, onCheckFailure);
  const analysis: Analysis = { url: page.requestedUrl, page: pageFacts(page), results, ...scoreResults(results), generatedAt };
  // Judged once for both structured-data checks (judge.ts keeps it with the snapshot); null without structured data.
  analysis.structuredData = structuredDataReport(judgeStructuredData(snapshot), schemaOrg.version);
  if (crawl) analysis.crawlFacts = crawlFactsOf(snapshot, results, crawl);
  if (rendered) analysis.rendered = rendered;
  if (lab) analysis.lab = labSummary(lab, results);
  return analysis;
}
