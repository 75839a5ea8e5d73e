// What changed between two runs of a report (API.md "Runs"): a pure function of the two. A check
// "fails" when passed is false; passing or not applying (null) both count as not failing.
import type { CheckResult } from '../analysis/types.ts';
import type { RunSummary } from './types.ts';

interface ChangedCheck {
  id: string;
  importance: CheckResult['importance'];
  /** the check's value in the older run (null when it was not there) */
  from: unknown;
  to: unknown;
}

export interface RunDiff {
  report_id: number;
  from: RunHeader;
  to: RunHeader;
  score_delta: number;
  result_changed: boolean;
  newly_failed: ChangedCheck[];
  fixed: ChangedCheck[];
  still_failing: string[];
}

type RunHeader = Pick<RunSummary, 'id' | 'number' | 'score' | 'result' | 'generated_at'>;

export interface RunWithResults extends RunSummary {
  results: Record<string, CheckResult>;
}

const header = ({ id, number, score, result, generated_at }: RunSummary): RunHeader => ({ id, number, score, result, generated_at });

const failing = (result: CheckResult | undefined) => result?.passed === false;

export function diffRuns(reportId: number, from: RunWithResults, to: RunWithResults): RunDiff {
  const newlyFailed: ChangedCheck[] = [];
  const fixed: ChangedCheck[] = [];
  const stillFailing: string[] = [];
  // The newer run's order (the check registry's), then checks only the older run had.
  const ids = [...new Set([...Object.keys(to.results), ...Object.keys(from.results)])];
  for (const id of ids) {
    const before = from.results[id];
    const after = to.results[id];
    const change = () => ({ id, importance: (after ?? before)!.importance, from: before?.value ?? null, to: after?.value ?? null });
    if (failing(before) && failing(after)) stillFailing.push(id);
    else if (failing(after)) newlyFailed.push(change());
    else if (failing(before)) fixed.push(change());
  }
  return {
    report_id: reportId,
    from: header(from),
    to: header(to),
    score_delta: to.score - from.score,
    result_changed: to.result !== from.result,
    newly_failed: newlyFailed,
    fixed,
    still_failing: stillFailing,
  };
}
