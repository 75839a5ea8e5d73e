// What changed between two runs of a report (docs/api.md, `GET /api/v1/reports/{id}/diff`): a pure
// function of the two. A check "fails" when passed is false; passing or not applying (null) both count
// as not failing.
import type { CheckResult } from '../analysis/types.ts';
import type { RunSummary } from './types.ts';

interface ChangedCheck {
  id: string;
  importance: CheckResult['importance'];
  /** the check's value in the older run (null when it was not there) */
  from: unknown;
  to: unknown;
}

/** What a diff says of each side: score, verdict and time; a stored run adds its id and number. */
type AnalysisHeader = Pick<RunSummary, 'score' | 'result' | 'generated_at'>;
type RunHeader = Pick<RunSummary, 'id' | 'number'> & AnalysisHeader;

/** The diff of two analyses, stored or not; isRegression judges it. */
export interface AnalysisDiff {
  from: AnalysisHeader;
  to: AnalysisHeader;
  score_delta: number;
  result_changed: boolean;
  newly_failed: ChangedCheck[];
  fixed: ChangedCheck[];
  still_failing: string[];
}

export interface RunDiff extends AnalysisDiff {
  report_id: number;
  from: RunHeader;
  to: RunHeader;
}

/** What the diff reads of each side: an earlier `--json` output has these too. */
export interface ComparableAnalysis extends AnalysisHeader {
  results: Record<string, Pick<CheckResult, 'passed' | 'importance' | 'value'>>;
}

export interface RunWithResults extends RunSummary {
  results: Record<string, CheckResult>;
}

const analysisHeader = ({ score, result, generated_at }: AnalysisHeader): AnalysisHeader => ({ score, result, generated_at });
const runHeader = (run: RunSummary): RunHeader => ({ id: run.id, number: run.number, ...analysisHeader(run) });

const failing = (result: ComparableAnalysis['results'][string] | undefined) => result?.passed === false;

export function diffAnalyses(from: ComparableAnalysis, to: ComparableAnalysis): AnalysisDiff {
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
    from: analysisHeader(from),
    to: analysisHeader(to),
    score_delta: to.score - from.score,
    result_changed: to.result !== from.result,
    newly_failed: newlyFailed,
    fixed,
    still_failing: stillFailing,
  };
}

export function diffRuns(reportId: number, from: RunWithResults, to: RunWithResults): RunDiff {
  // Written over the analysis diff's from and to, which keep their place after report_id.
  return { report_id: reportId, ...diffAnalyses(from, to), from: runHeader(from), to: runHeader(to) };
}
