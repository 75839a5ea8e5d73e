// What subscribers hear after a run is stored: report.completed always, and report.regressed when the
// run is worse than the one before it (docs/api.md, "Webhook deliveries"): its verdict went down, its
// score fell by at least PAGEGRADE_ALERT_SCORE_DROP, or a high-importance check that did not fail now
// fails.
import type { Kysely } from 'kysely';
import { RESULT_RANK } from '../db/tables/report.table.ts';
import type { Database } from '../db/database.ts';
import { findReportRow } from '../repositories/report.repository.ts';
import { latestRun } from '../repositories/report-run.repository.ts';
import type { Verdict } from '../analysis/types.ts';
import { diffRuns, type AnalysisDiff, type RunDiff } from './run-diff.ts';
import { toReportSummary } from './report-view.ts';
import { toRun } from './run-view.ts';
import type { ReportSummary } from './types.ts';

type ReportEvent = 'report.completed' | 'report.failed' | 'report.regressed';
type EventData = ReportSummary | (ReportSummary & { diff: RunDiff });
/**
 * Tells subscribers (webhooks) what happened to a report; never throws into the caller's work. Each
 * event's data is built only when someone subscribes to it (undefined: nothing to send after all), so
 * an account without webhooks pays one small query per call, not the reads behind the data.
 */
export type ReportNotifier = (
  accountId: number,
  events: Partial<Record<ReportEvent, () => Promise<EventData | undefined>>>,
) => Promise<void>;


/** Each way the newer side is worse; `analyze --fail-on-regression` prints them. */
export type RegressionReason =
  | { kind: 'verdict_down'; from: Verdict; to: Verdict }
  | { kind: 'score_fell'; by: number }
  | { kind: 'high_newly_failing'; ids: string[] };

export function regressionReasons(diff: AnalysisDiff, scoreDrop: number): RegressionReason[] {
  const reasons: RegressionReason[] = [];
  if (RESULT_RANK[diff.to.result] < RESULT_RANK[diff.from.result]) reasons.push({ kind: 'verdict_down', from: diff.from.result, to: diff.to.result });
  if (-diff.score_delta >= scoreDrop) reasons.push({ kind: 'score_fell', by: -diff.score_delta });
  const high = diff.newly_failed.filter((check) => check.importance === 'high').map((check) => check.id);
  if (high.length > 0) reasons.push({ kind: 'high_newly_failing', ids: high });
  return reasons;
}

export function isRegression(diff: AnalysisDiff, scoreDrop: number): boolean {
  return regressionReasons(diff, scoreDrop).length > 0;
}

/** Announces the report's latest run; the caller stored it just now. */
export async function announceRun(
  db: Kysely<Database>,
  notify: ReportNotifier,
  accountId: number,
  reportId: number,
  scoreDrop: number,
): Promise<void> {
  // Both events carry the report: read it once, and only if one of them is sent.
  let read: Promise<ReportSummary | undefined> | undefined;
  const summary = () => (read ??= findReportRow(db, accountId, reportId).then((row) => row && toReportSummary(row)));
  await notify(accountId, {
    'report.completed': summary,
    'report.regressed': async () => {
      const latest = await latestRun(db, reportId);
      const previous = latest && (await latestRun(db, reportId, latest.number));
      if (latest === undefined || previous === undefined) return undefined;
      const diff = diffRuns(reportId, toRun(previous), toRun(latest));
      const report = isRegression(diff, scoreDrop) ? await summary() : undefined;
      return report && { ...report, diff };
    },
  });
}
