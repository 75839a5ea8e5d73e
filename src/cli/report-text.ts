// One analysis as a readable report: verdict first (and with --lab the lab audit, lab-text.ts), then
// what failed (grouped by category, with the offending items and the fix), then what passed and what
// did not apply.
import type { Analysis, CheckResult, Verdict } from '../analysis/types.ts';
import type { Category, Importance } from '../checks/check.ts';
import { checksById } from '../checks/index.ts';
import { verdictReason } from '../scoring/score.ts';
import { renderLabText } from './lab-text.ts';
import { FINDING_CHECKS, findingLine, findingsOf } from './structured-findings.ts';
import { printable, truncate, displayWidth, type Style } from './terminal-text.ts';

const CATEGORIES: readonly [Category, string][] = [
  ['seo', 'SEO'],
  ['performance', 'Performance'],
  ['security', 'Security'],
  ['miscellaneous', 'Miscellaneous'],
  ['accessibility', 'Accessibility'],
];
const IMPORTANCE_RANK: Record<Importance, number> = { high: 0, medium: 1, low: 2 };
/** A few items show what is wrong; the rest are counted, so one bad page cannot flood the terminal. */
const ITEMS_PER_KIND = 3;
const MAX_ITEM_CHARS = 160;
const LINE_WIDTH = 100;

export function verdictColour(verdict: Verdict, style: Style): (text: string) => string {
  return verdict === 'good' ? style.green : verdict === 'decent' ? style.yellow : style.red;
}

export function importanceColour(importance: Importance, style: Style): (text: string) => string {
  return importance === 'high' ? style.red : importance === 'medium' ? style.yellow : style.dim;
}

export function titleOf(id: string, passed: boolean): string {
  const check = checksById.get(id);
  if (!check) return id;
  return passed ? check.title : check.failureTitle;
}

/** An offending item: strings as they are, objects as "key: value" pairs. */
export function describeItem(item: unknown): string {
  if (typeof item === 'string') return item;
  if (item !== null && typeof item === 'object' && !Array.isArray(item)) {
    return Object.entries(item)
      .map(([key, value]) => `${key}: ${typeof value === 'string' ? value : JSON.stringify(value)}`)
      .join(', ');
  }
  return JSON.stringify(item) ?? String(item);
}

/** A structured-data finding leads with its line, so cutting a long one keeps where it is. */
function renderErrors(id: string, errors: Record<string, unknown[]>): string[] {
  const lines: string[] = [];
  for (const [kind, items] of Object.entries(errors)) {
    lines.push(`      ${printable(kind.replaceAll('_', ' '))}:`);
    const shown = items.slice(0, ITEMS_PER_KIND);
    const described = FINDING_CHECKS.has(id) ? findingsOf(id, { [kind]: shown }).map(findingLine) : shown.map(describeItem);
    for (const item of described) {
      lines.push(`        - ${truncate(printable(item), MAX_ITEM_CHARS)}`);
    }
    if (items.length > ITEMS_PER_KIND) lines.push(`        … and ${items.length - ITEMS_PER_KIND} more`);
  }
  return lines;
}

function renderFailed(failed: [string, CheckResult][], style: Style): string[] {
  if (failed.length === 0) return [style.green('No failed checks.')];
  const lines = [style.bold(`Failed checks (${failed.length})`)];
  for (const [category, label] of CATEGORIES) {
    const inCategory = failed
      .filter(([, result]) => result.category === category)
      .sort(([, a], [, b]) => IMPORTANCE_RANK[a.importance] - IMPORTANCE_RANK[b.importance]);
    if (inCategory.length === 0) continue;
    lines.push('', style.bold(label));
    for (const [id, result] of inCategory) {
      lines.push(`  ${style.red('✗')} ${titleOf(id, false)} ${importanceColour(result.importance, style)(`[${result.importance}]`)}`);
      if (result.errors) lines.push(...renderErrors(id, result.errors));
      const fix = checksById.get(id)?.howToFix;
      if (fix) lines.push(`      ${style.dim('Fix:')} ${fix}`);
    }
  }
  return lines;
}

/** Joins titles with separators, wrapped to the line width. */
function wrapList(titles: string[], indent: string): string[] {
  const lines: string[] = [];
  let line = '';
  for (const title of titles) {
    const candidate = line === '' ? title : `${line} · ${title}`;
    if (line !== '' && displayWidth(indent + candidate) > LINE_WIDTH) {
      lines.push(indent + line);
      line = title;
    } else line = candidate;
  }
  if (line !== '') lines.push(indent + line);
  return lines;
}

function renderHeader(analysis: Analysis, style: Style): string[] {
  const { page, issues } = analysis;
  const lines = [style.bold(printable(analysis.url))];
  if (page.final_url !== analysis.url) lines.push(`  → ${printable(page.final_url)}`);
  const colour = verdictColour(analysis.result, style);
  lines.push(`Score ${colour(`${analysis.score}/100 ${analysis.result}`)}`);
  // When the grade is not the one the score gives (an error status, noindex), say why under it.
  const reason = verdictReason(analysis.results);
  if (reason !== null) lines.push(colour(reason));
  lines.push(
    style.dim(
      `HTTP ${page.status_code} · ${(page.bytes / 1024).toFixed(1)} KiB · ${page.load_time_ms} ms · ` +
        `issues: ${issues.high} high, ${issues.medium} medium, ${issues.low} low`,
    ),
  );
  return lines;
}

/**
 * A line per check that did not apply, with its reason; accessibility rules (64 of them, most not
 * applying to a given page, all of them without --lab) a line per reason, with their count.
 */
function renderNotApplicable(notApplicable: [string, CheckResult][]): string[] {
  const reasonOf = (result: CheckResult) => printable(result.reason ?? 'not applicable');
  const lines = notApplicable
    .filter(([, result]) => result.category !== 'accessibility')
    .map(([id, result]) => `  - ${titleOf(id, true)}: ${reasonOf(result)}`);
  const rules = new Map<string, string[]>();
  for (const [id, result] of notApplicable) {
    if (result.category === 'accessibility') rules.set(reasonOf(result), [...(rules.get(reasonOf(result)) ?? []), id]);
  }
  for (const [reason, ids] of rules) {
    lines.push(ids.length === 1 ? `  - ${titleOf(ids[0], true)}: ${reason}` : `  - ${ids.length} accessibility rules: ${reason}`);
  }
  return lines;
}

export function renderReport(analysis: Analysis, style: Style): string {
  const entries = Object.entries(analysis.results);
  const failed = entries.filter(([, result]) => result.passed === false);
  const passed = entries.filter(([, result]) => result.passed === true);
  const notApplicable = entries.filter(([, result]) => result.passed === null);
  const lab = renderLabText(analysis, style);
  const lines = [...renderHeader(analysis, style), ...(lab.length > 0 ? ['', ...lab] : []), '', ...renderFailed(failed, style)];
  if (passed.length > 0) {
    lines.push('', style.bold(`Passed (${passed.length})`));
    // Wrapped as plain text so the width is right, then the marks are coloured.
    const wrapped = wrapList(passed.map(([id]) => `✓ ${titleOf(id, true)}`), '  ');
    lines.push(...wrapped.map((line) => line.replaceAll('✓', style.green('✓'))));
  }
  if (notApplicable.length > 0) {
    lines.push('', style.bold(`Not applicable (${notApplicable.length})`), ...renderNotApplicable(notApplicable));
  }
  return `${lines.join('\n')}\n`;
}

/** A URL that could not be analysed, in place of its report. */
export function renderNotAnalyzed(url: string, reason: string, style: Style): string {
  return `${style.bold(printable(url))}\n${style.red('Could not be analysed:')} ${printable(reason)}\n`;
}
