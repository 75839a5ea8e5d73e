// Lab audits of a crawl's pages (docs/lab.md, "Lab audits of a crawl"): once every page is in and
// before the finish's site checks, while the crawl is still running, a work job chooses the pages
// (crawl/lab-templates.ts: at most lab_pages, covering the URL templates) and stores the choice; then
// the crawl's work jobs audit them one at a time, each page under a claim with a lease renewed while
// its audit lasts, so a crawl whose process dies goes on with the pages not yet audited and none is
// stored twice. The crawl's own fetch is not made again: the audit is added to the page's run of
// this crawl, its lab checks judged from the measurement (on this thread: they read nothing else) and
// merged into the stored results, the run re-scored in place, and the report's row and the crawl's
// page row follow (the crawl's score is the mean of its pages' scores, lab checks included).
import type { Kysely } from 'kysely';
import type { Database } from '../db/database.ts';
import type { CrawlRow } from '../db/tables/crawl.table.ts';
import type { CheckContext, CheckDefinition } from '../checks/check.ts';
import { accessibilityChecks } from '../checks/accessibility/index.ts';
import { cumulativeLayoutShiftCheck } from '../checks/performance/cumulative-layout-shift.ts';
import { firstContentfulPaintCheck } from '../checks/performance/first-contentful-paint.ts';
import { largestContentfulPaintCheck } from '../checks/performance/largest-contentful-paint.ts';
import { pageWeightCheck } from '../checks/performance/page-weight.ts';
import { totalBlockingTimeCheck } from '../checks/performance/total-blocking-time.ts';
import { DEFAULT_THRESHOLDS, type CheckThresholds } from '../checks/thresholds.ts';
import { labSummary } from '../analysis/lab-summary.ts';
import { packResults, unpackResults } from '../analysis/packed-results.ts';
import type { Lab, LabAudit, LabProfileName } from '../lab/lab-types.ts';
import type { Renderer } from '../render/renderer.ts';
import { runChecks, type CheckFailureLogger } from '../scoring/run-checks.ts';
import { scoreResults } from '../scoring/score.ts';
import { EMPTY_LAB_SUMMARY, summariseLabPages } from '../crawl/crawl-lab-summary.ts';
import { chooseLabPages, type ReadDepth } from '../crawl/lab-templates.ts';
import * as crawlRepository from '../repositories/crawl.repository.ts';
import * as labRepository from '../repositories/crawl-lab.repository.ts';
import { findRunResults, replaceLatestSummary, replaceRunAnalysis } from '../repositories/lab-run.repository.ts';
import { adjustProjectCounts } from '../repositories/project.repository.ts';
import type { DbExecutor } from '../repositories/executor.ts';
import { NotFoundError } from './errors.ts';
import { countsDelta, lockedReport } from './report-run.ts';

/** What the crawl jobs need to make lab audits: the browser and the thresholds the lab checks judge with. */
export interface CrawlLabSettings {
  /** the browser pool's lab audits (Renderer.lab: one at a time per process, its gate); null: no Chromium */
  renderer: Pick<Renderer, 'lab'> | null;
  /** PAGEGRADE_THRESHOLDS, as the page analyses use them */
  thresholds: CheckThresholds;
  onCheckFailure?: CheckFailureLogger;
}

/** How a job's lab phase ended: every chosen page done, its slice over (it continues), or the crawl no longer running. */
export type LabPhase = 'finished' | 'later' | 'stopped';

/** The checks a lab audit feeds (docs/lab.md): the five lab metrics and every a11y_ check. They read only `lab` and `thresholds`. */
const LAB_CHECKS: readonly CheckDefinition[] = [
  largestContentfulPaintCheck,
  cumulativeLayoutShiftCheck,
  totalBlockingTimeCheck,
  firstContentfulPaintCheck,
  pageWeightCheck,
  ...accessibilityChecks,
];

/** Claims of one page before its audit is recorded as failed: a page whose audit kills its process each time. */
const MAX_LAB_ATTEMPTS = 3;
/** Longest wait before a job looks again while another job's audit is under way. */
const BUSY_POLL_MS = 1_000;
/** As analyze-url.ts says it for a single report. */
const NO_BROWSER_REASON = 'Lab audits are not available on this server (no Chromium).';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, Math.max(1, ms)));
const iso = (ms: number) => new Date(ms).toISOString();

/** Why a chosen page has no lab audit in its run, though it was chosen. */
const REPORT_GONE = "The page's report was deleted before its lab audit could be stored.";
const RUN_GONE = "The page's run of this crawl is no longer kept (PAGEGRADE_RUNS_KEPT), so its lab audit was not stored.";

export function createLabWork(db: Kysely<Database>, settings: { claimMs: number; lab?: CrawlLabSettings }) {
  const thresholds = settings.lab?.thresholds ?? DEFAULT_THRESHOLDS;

  /** One depth's candidates, a bounded batch a statement (null: the pages without a click depth). */
  const depthReader = (crawlId: number, depth: number | null): ReadDepth =>
    async function* () {
      let afterId = 0;
      for (;;) {
        const { candidates, lastId } = await labRepository.readLabCandidates(db, crawlId, depth, afterId);
        yield candidates;
        if (lastId === null) return;
        afterId = lastId;
      }
    };

  /** Chooses the pages to audit unless they were chosen; false when the crawl no longer runs. */
  async function choose(crawl: CrawlRow, labPages: number): Promise<boolean> {
    const current = await crawlRepository.findCrawlById(db, crawl.id);
    if (current === undefined || current.state !== 'running') return false;
    if (current.lab_summary !== null) return true;
    const deepest = await labRepository.deepestVisitedDepth(db, crawl.id);
    const depths: ReadDepth[] = [];
    for (let depth = 0; deepest !== null && depth <= deepest; depth++) depths.push(depthReader(crawl.id, depth));
    depths.push(depthReader(crawl.id, null));
    const chosen = await chooseLabPages(labPages, depths);
    // Two jobs idle at one moment may both choose (the same pages): the first to store it wins.
    return db.transaction().execute(async (trx) => {
      const counters = await crawlRepository.lockCrawl(trx, crawl.id);
      if (counters === undefined || counters.state !== 'running') return false;
      await labRepository.storeLabChoice(trx, crawl.id, chosen, JSON.stringify(EMPTY_LAB_SUMMARY));
      return true;
    });
  }

  /** The audit, its claim's lease renewed while it lasts; cancelled when the claim is lost (the crawl deleted, or thought dead). */
  async function audited(claim: labRepository.LabClaim, profile: LabProfileName): Promise<LabAudit> {
    if (claim.attempts > MAX_LAB_ATTEMPTS) return { ok: false, reason: `The lab audit could not be made in ${MAX_LAB_ATTEMPTS} attempts.` };
    const renderer = settings.lab?.renderer;
    if (!renderer) return { ok: false, reason: NO_BROWSER_REASON };
    const lost = new AbortController();
    const renewal = setInterval(() => {
      labRepository.renewLabLease(db, claim, iso(Date.now() + settings.claimMs)).then(
        (holds) => holds || lost.abort(),
        // A renewal that failed (the database away a moment) is tried again; the lease runs out if it stays away.
        () => {},
      );
    }, Math.max(1, Math.floor(settings.claimMs / 3)));
    try {
      // A crawl's request headers and user agent are not the lab audit's: it loads the page as the profile's device (docs/lab.md).
      return await renderer.lab(claim.url, profile, lost.signal);
    } finally {
      clearInterval(renewal);
    }
  }

  /** Stores the audit in the page's run and on its chosen row, if the claim still holds the page and the crawl runs. */
  async function store(crawl: CrawlRow, claim: labRepository.LabClaim, profile: LabProfileName, audit: LabAudit): Promise<void> {
    await db.transaction().execute(async (trx) => {
      const counters = await crawlRepository.lockCrawl(trx, crawl.id);
      if (counters === undefined || counters.state !== 'running' || !(await labRepository.holdsLabPage(trx, claim))) return;
      const added = await addToRun(trx, crawl.organization_id, claim, profile, audit);
      const lab = 'lab' in added ? added.lab : null;
      const recorded = await labRepository.recordLabPage(trx, claim, {
        audited: lab === null ? 0 : 1,
        error: 'missing' in added ? added.missing : audit.ok ? null : audit.reason,
        lcp_ms: lab?.metrics.lcp_ms ?? null,
        cls: lab?.metrics.cls ?? null,
        tbt_ms: lab?.metrics.tbt_ms ?? null,
        accessibility_score: lab?.accessibility.score ?? null,
      });
      if (recorded && lab !== null) {
        await labRepository.setLabSummary(trx, crawl.id, JSON.stringify(summariseLabPages(await labRepository.auditedLabPages(trx, crawl.id))));
      }
    });
  }

  /**
   * The audit becomes part of the page's run: the lab checks judge it, their results replace the
   * run's (which said no lab audit was made), and the run is scored again. A failed audit leaves the
   * lab checks null with its reason and the score as it was.
   */
  async function addToRun(trx: DbExecutor, organizationId: number, claim: labRepository.LabClaim, profile: LabProfileName, audit: LabAudit): Promise<{ lab: Lab | null } | { missing: string }> {
    if (claim.reportId === null) return { missing: REPORT_GONE };
    let report;
    try {
      // Its project's row first, as every change to a project's reports takes it.
      report = await lockedReport(trx, organizationId, claim.reportId);
    } catch (error) {
      if (error instanceof NotFoundError) return { missing: REPORT_GONE };
      throw error;
    }
    const run = await findRunResults(trx, claim.reportId, claim.runNumber);
    if (run === undefined) return { missing: RUN_GONE };
    // Judged from the measurement alone: the lab checks read nothing of the page (checks/lab-audit.ts).
    const labResults = runChecks(LAB_CHECKS, { lab: audit, thresholds } as CheckContext, settings.lab?.onCheckFailure);
    const results = { ...unpackResults(run.results), ...labResults };
    const scored = scoreResults(results);
    const lab = labSummary(audit, results);
    const issues = { issues_high: scored.issues.high, issues_medium: scored.issues.medium, issues_low: scored.issues.low };
    await replaceRunAnalysis(trx, run.id, {
      results: packResults(results),
      score: scored.score,
      result: scored.result,
      ...issues,
      lab: lab === null ? null : JSON.stringify(lab),
      // The profile it was asked under, also when it failed (a scheduled run of the report repeats it).
      lab_profile: profile,
    });
    if (report.last_run_number === claim.runNumber) {
      const now = new Date().toISOString();
      await replaceLatestSummary(trx, organizationId, report.id, { score: scored.score, result: scored.result, ...issues }, now);
      if (report.result !== scored.result) {
        const removed = countsDelta(report.result, -1);
        const added = countsDelta(scored.result, 1);
        await adjustProjectCounts(trx, organizationId, report.project, { reports: 0, good: removed.good + added.good, decent: removed.decent + added.decent, bad: removed.bad + added.bad }, now);
      }
    }
    await labRepository.rescorePage(trx, claim.pageId, scored.score, scored.result);
    return { lab };
  }

  /**
   * A job's turn at the crawl's lab audits: choose the pages (once), then audit the next one while the
   * slice lasts; a job that finds another's audit under way waits for it, so it can take over if that
   * process dies.
   */
  return async function labPhase(crawl: CrawlRow, sliceEnd: number): Promise<LabPhase> {
    const profile = crawl.lab_profile as LabProfileName;
    if (!(await choose(crawl, crawl.lab_pages ?? 0))) return 'stopped';
    for (;;) {
      const now = Date.now();
      if (now >= sliceEnd) return 'later';
      const claimed = await db.transaction().execute(async (trx) => {
        const counters = await crawlRepository.lockCrawl(trx, crawl.id);
        if (counters === undefined || counters.state !== 'running') return 'stopped' as const;
        return labRepository.claimLabPage(trx, crawl.id, { now: iso(now), leaseUntil: iso(now + settings.claimMs) });
      });
      if (claimed === 'stopped') return 'stopped';
      if ('finished' in claimed) return 'finished';
      if ('busy' in claimed) {
        await sleep(Math.min(Math.max(Date.parse(claimed.retryAt) - now, 50), BUSY_POLL_MS, sliceEnd - now));
        continue;
      }
      await store(crawl, claimed.claimed, profile, await audited(claimed.claimed, profile));
    }
  };
}
