// `analyze --budget <file>`: assertions every analysed page must meet, from a JSON file (README,
// "Command line"). Every key is optional:
//   {"min_score": 80, "categories": {"seo": 90, "performance": 50}, "must_pass": ["title"],
//    "max_failed": {"high": 0, "medium": 3, "low": 10},
//    "lab": {"lcp_ms": 2500, "cls": 0.1, "tbt_ms": 200, "fcp_ms": 1800}}
// A broken assertion is a failed gate (exit code 1, as --min-score); an unreadable or invalid file is a
// usage error (exit code 2), found before anything is analysed. `lab` and `categories.accessibility`
// judge what only a lab audit measures (docs/lab.md), so they need --lab (labAssertions).
import type { Analysis } from '../analysis/types.ts';
import type { Category, Importance } from '../checks/check.ts';
import { checksById } from '../checks/index.ts';
import { categoryScore } from '../scoring/score.ts';
import { CATEGORY_NAMES } from '../web/views/format.ts';
import { UsageError } from './command.ts';
import { isObject, readJsonOptionFile } from './json-option-file.ts';
import { titleOf } from './report-text.ts';
import { printable } from './terminal-text.ts';

export interface Budget {
  min_score?: number;
  categories?: Partial<Record<Category, number>>;
  must_pass?: string[];
  max_failed?: Partial<Record<Importance, number>>;
  /** the most each of the page's `lab.metrics` may be */
  lab?: Partial<Record<LabBudgetKey, number>>;
}

const LAB_KEYS = ['lcp_ms', 'cls', 'tbt_ms', 'fcp_ms'] as const;
type LabBudgetKey = (typeof LAB_KEYS)[number];
/** How the notes name a metric that was not measured. */
const LAB_ABBREVIATIONS: Record<LabBudgetKey, string> = { lcp_ms: 'LCP', cls: 'CLS', tbt_ms: 'TBT', fcp_ms: 'FCP' };

const CATEGORIES = Object.keys(CATEGORY_NAMES) as Category[];
const IMPORTANCES: readonly Importance[] = ['high', 'medium', 'low'];
const KEYS = ['min_score', 'categories', 'must_pass', 'max_failed', 'lab'];

const isScore = (value: unknown): value is number => typeof value === 'number' && value >= 0 && value <= 100;
const isCount = (value: unknown): value is number => typeof value === 'number' && Number.isInteger(value) && value >= 0;
const isLimit = (value: unknown): value is number => typeof value === 'number' && value >= 0;
const shown = (value: unknown) => JSON.stringify(value) ?? String(value);

/**
 * Throws a UsageError naming the first key that is unknown or has a value of the wrong kind; `at` goes
 * before every key it names ("budget." for the budget of a config file, config-file.ts).
 */
export function parseBudget(value: unknown, invalid: (why: string) => UsageError, at = ''): Budget {
  if (!isObject(value)) throw invalid('it is not a JSON object');
  const unknownIn = (object: Record<string, unknown>, known: readonly string[], prefix: string) => {
    const key = Object.keys(object).find((name) => !known.includes(name));
    if (key !== undefined) throw invalid(`unknown key "${at}${prefix}${key}" (known: ${known.join(', ')})`);
  };
  unknownIn(value, KEYS, '');
  const { min_score, categories, must_pass, max_failed, lab } = value;
  if (min_score !== undefined && !isScore(min_score)) throw invalid(`"${at}min_score" must be a number from 0 to 100; got ${shown(min_score)}`);
  if (categories !== undefined) {
    if (!isObject(categories)) throw invalid(`"${at}categories" must be an object of scores by category; got ${shown(categories)}`);
    unknownIn(categories, CATEGORIES, 'categories.');
    for (const [category, score] of Object.entries(categories)) {
      if (!isScore(score)) throw invalid(`"${at}categories.${category}" must be a number from 0 to 100; got ${shown(score)}`);
    }
  }
  if (must_pass !== undefined) {
    if (!Array.isArray(must_pass) || !must_pass.every((id) => typeof id === 'string')) {
      throw invalid(`"${at}must_pass" must be an array of check ids; got ${shown(must_pass)}`);
    }
    const unknown = must_pass.find((id) => !checksById.has(id));
    if (unknown !== undefined) throw invalid(`"${at}must_pass" names no known check: ${shown(unknown)}`);
  }
  if (max_failed !== undefined) {
    if (!isObject(max_failed)) throw invalid(`"${at}max_failed" must be an object of counts by importance; got ${shown(max_failed)}`);
    unknownIn(max_failed, IMPORTANCES, 'max_failed.');
    for (const [importance, count] of Object.entries(max_failed)) {
      if (!isCount(count)) throw invalid(`"${at}max_failed.${importance}" must be a whole number from 0; got ${shown(count)}`);
    }
  }
  if (lab !== undefined) {
    if (!isObject(lab)) throw invalid(`"${at}lab" must be an object of limits by metric; got ${shown(lab)}`);
    unknownIn(lab, LAB_KEYS, 'lab.');
    for (const [metric, limit] of Object.entries(lab)) {
      if (!isLimit(limit)) throw invalid(`"${at}lab.${metric}" must be a number from 0; got ${shown(limit)}`);
    }
  }
  return value as Budget;
}

/**
 * The assertions of a budget that only a lab audit can judge ("lab.lcp_ms", "categories.accessibility"),
 * in the file's order; empty when it has none. A `lab` key with no metric counts as "lab".
 */
export function labAssertions(budget: Budget): string[] {
  const lab = budget.lab === undefined ? [] : Object.keys(budget.lab).length === 0 ? ['lab'] : Object.keys(budget.lab).map((key) => `lab.${key}`);
  const accessibility = budget.categories?.accessibility === undefined ? [] : ['categories.accessibility'];
  return [...lab, ...accessibility];
}

export async function readBudget(path: string): Promise<Budget> {
  const value = await readJsonOptionFile('--budget', path);
  return parseBudget(value, (why) => new UsageError(`--budget ${path} is not a valid budget: ${why}.`));
}

export interface BudgetCheck {
  /** one line per broken assertion: the assertion and its limit, the URL, the value */
  broken: string[];
  /** assertions that could not be judged on this page: a category or a check that does not apply */
  unchecked: string[];
}

export function checkBudget(analysis: Analysis, budget: Budget): BudgetCheck {
  const url = printable(analysis.url);
  const broken: string[] = [];
  const unchecked: string[] = [];
  if (budget.min_score !== undefined && analysis.score < budget.min_score) {
    broken.push(`--budget min_score ${budget.min_score}: ${url} scored ${analysis.score}.`);
  }
  for (const [category, limit] of Object.entries(budget.categories ?? {}) as [Category, number][]) {
    const score = categoryScore(analysis.results, category);
    const name = CATEGORY_NAMES[category];
    if (score === null) unchecked.push(`--budget categories.${category} ${limit} not checked for ${url}: no ${name} check applies.`);
    else if (score < limit) broken.push(`--budget categories.${category} ${limit}: ${url} scored ${score} in ${name}.`);
  }
  for (const id of new Set(budget.must_pass ?? [])) {
    const result = analysis.results[id];
    if (result?.passed === false) broken.push(`--budget must_pass ${id}: ${url} failed it (${titleOf(id, false)}).`);
    else if (!result || result.passed === null) {
      unchecked.push(`--budget must_pass ${id} not checked for ${url}: the check does not apply (${printable(result?.reason ?? 'no result')}).`);
    }
  }
  for (const [importance, limit] of Object.entries(budget.max_failed ?? {}) as [Importance, number][]) {
    const failed = Object.entries(analysis.results).filter(([, result]) => result.passed === false && result.importance === importance);
    if (failed.length > limit) {
      const ids = failed.map(([id]) => id).join(', ');
      broken.push(`--budget max_failed.${importance} ${limit}: ${url} failed ${failed.length} ${importance}-importance checks (${ids}).`);
    }
  }
  for (const [metric, limit] of Object.entries(budget.lab ?? {}) as [LabBudgetKey, number][]) {
    const value = analysis.lab ? analysis.lab.metrics[metric] : null;
    if (value === null) unchecked.push(`--budget lab.${metric} ${limit} not checked for ${url}: ${unmeasured(analysis, metric)}.`);
    else if (value > limit) broken.push(`--budget lab.${metric} ${limit}: ${url} measured ${value}.`);
  }
  return { broken, unchecked };
}

/** Why a page has no value of a metric: its lab audit could not observe it, or the metric never happened. */
function unmeasured(analysis: Analysis, metric: LabBudgetKey): string {
  if (analysis.lab) return `the lab audit measured no ${LAB_ABBREVIATIONS[metric]} (nothing contentful was painted)`;
  // The lab checks say why there is no lab audit ("The lab audit could not load the page: ...").
  const reason = analysis.results.largest_contentful_paint?.reason;
  return `no lab audit of the page (${printable(reason ?? 'none was made')})`;
}
