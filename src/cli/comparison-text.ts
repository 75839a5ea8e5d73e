// The "What changed" section `analyze --compare` adds to each report, and why a page regressed.
import type { Verdict } from '../analysis/types.ts';
import type { AnalysisDiff } from '../services/run-diff.ts';
import type { RegressionReason } from '../services/run-events.ts';
import { importanceColour, titleOf, verdictColour } from './report-text.ts';
import { printable, type Style } from './terminal-text.ts';
import type { Comparison } from './url-outcome.ts';

const signed = (delta: number) => (delta > 0 ? `+${delta}` : delta < 0 ? `${delta}` : '±0');

/** e.g. "verdict down (good → decent); score fell by 21; high-importance checks newly failing: title" */
export function describeRegression(reasons: readonly RegressionReason[]): string {
  return reasons
    .map((reason) => {
      if (reason.kind === 'verdict_down') return `verdict down (${reason.from} → ${reason.to})`;
      if (reason.kind === 'score_fell') return `score fell by ${reason.by}`;
      return `high-importance checks newly failing: ${reason.ids.map(printable).join(', ')}`;
    })
    .join('; ');
}

function renderScoreLine({ from, to, score_delta }: AnalysisDiff, style: Style): string {
  const coloured = (verdict: Verdict) => verdictColour(verdict, style)(verdict);
  const verdict = from.result === to.result ? `still ${coloured(to.result)}` : `${coloured(from.result)} → ${coloured(to.result)}`;
  return `  Score ${from.score} → ${to.score} (${signed(score_delta)}) · ${verdict}`;
}

function renderChecks(diff: AnalysisDiff, style: Style): string[] {
  const lines: string[] = [];
  if (diff.newly_failed.length > 0) lines.push(`  ${style.bold(`Newly failing (${diff.newly_failed.length})`)}`);
  for (const check of diff.newly_failed) {
    lines.push(`    ${style.red('✗')} ${printable(titleOf(check.id, false))} ${importanceColour(check.importance, style)(`[${check.importance}]`)}`);
  }
  if (diff.fixed.length > 0) lines.push(`  ${style.bold(`Fixed (${diff.fixed.length})`)}`);
  for (const check of diff.fixed) lines.push(`    ${style.green('✓')} ${printable(titleOf(check.id, true))}`);
  if (lines.length === 0) lines.push('  No check newly failing or fixed.');
  lines.push(`  Still failing: ${diff.still_failing.length}`);
  return lines;
}

/** The section under a report; null: the earlier output had no result for this URL. */
export function renderComparison(comparison: Comparison | null, style: Style): string {
  if (comparison === null) return `\n${style.bold('What changed')}: no earlier result for this URL to compare with.\n`;
  const { diff, reasons } = comparison;
  const lines = ['', style.bold(`What changed since ${printable(diff.from.generated_at)}`), renderScoreLine(diff, style), ...renderChecks(diff, style)];
  if (reasons.length > 0) lines.push(`  ${style.red('Got worse:')} ${describeRegression(reasons)}`);
  return `${lines.join('\n')}\n`;
}
