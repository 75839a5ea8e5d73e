// `analyze --compare <file>`: an earlier `analyze --json` output, read and checked before anything is
// analysed, so a wrong file is a usage error (exit 2) and not a comparison against nothing.
import { parseTargetUrl } from '../analysis/target-url.ts';
import type { ComparableAnalysis } from '../services/run-diff.ts';
import { UsageError } from './command.ts';
import { isObject, readJsonOptionFile } from './json-option-file.ts';

/** By URL: the earlier result, or null when that run could not analyse the URL. */
export type EarlierResults = ReadonlyMap<string, ComparableAnalysis | null>;

const VERDICTS: readonly unknown[] = ['good', 'decent', 'bad'];
const IMPORTANCES: readonly unknown[] = ['high', 'medium', 'low'];

/** The key both runs are matched by: the URL as `analyze` normalises it (as it prints it in `url`). */
export function urlKey(url: string): string {
  const target = parseTargetUrl(url);
  return target.ok ? target.url : url.trim();
}

/** Returns what is wrong with one check result, or undefined; only what the diff reads is checked. */
function resultProblem(id: string, result: unknown): string | undefined {
  if (!isObject(result)) return `results.${id} is not an object`;
  if (result.passed !== true && result.passed !== false && result.passed !== null) return `results.${id}.passed is not true, false or null`;
  if (!IMPORTANCES.includes(result.importance)) return `results.${id}.importance is not high, medium or low`;
  return undefined;
}

/** Returns what is wrong with one URL's entry, or undefined. */
function entryProblem(entry: unknown): string | undefined {
  if (!isObject(entry)) return 'it is not an object';
  if (typeof entry.url !== 'string') return 'it has no "url"';
  if (typeof entry.error === 'string') return undefined;
  if (typeof entry.score !== 'number' || !Number.isInteger(entry.score) || entry.score < 0 || entry.score > 100) {
    return '"score" is not a whole number from 0 to 100';
  }
  if (!VERDICTS.includes(entry.result)) return '"result" is not good, decent or bad';
  if (typeof entry.generated_at !== 'string') return 'it has no "generated_at"';
  if (!isObject(entry.results)) return 'it has no "results" object';
  for (const [id, result] of Object.entries(entry.results)) {
    const problem = resultProblem(id, result);
    if (problem !== undefined) return problem;
  }
  return undefined;
}

function parseEarlier(value: unknown, path: string): EarlierResults {
  const notOutput = (why: string) => new UsageError(`--compare ${path} is not the output of \`pagegrade analyze --json\`: ${why}.`);
  const entries = Array.isArray(value) ? value : [value];
  if (entries.length === 0) throw notOutput('the array is empty');
  const byUrl = new Map<string, ComparableAnalysis | null>();
  entries.forEach((entry: unknown, index) => {
    const problem = entryProblem(entry);
    if (problem !== undefined) throw notOutput(Array.isArray(value) ? `entry ${index + 1}: ${problem}` : problem);
    const { url, error, score, result, generated_at, results } = entry as Record<string, unknown>;
    const key = urlKey(url as string);
    // A URL listed twice keeps its first analysed result: an error entry never hides one.
    if (byUrl.get(key)) return;
    byUrl.set(key, typeof error === 'string' ? null : ({ score, result, generated_at, results } as ComparableAnalysis));
  });
  return byUrl;
}

export async function readEarlierResults(path: string): Promise<EarlierResults> {
  return parseEarlier(await readJsonOptionFile('--compare', path), path);
}
