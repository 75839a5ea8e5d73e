// The options of `analyze`, checked: anything out of range is a usage error (exit code 2).
import { readFile } from 'node:fs/promises';
import { UsageError, type ParsedArgs } from './command.ts';
import { readEarlierResults, type EarlierResults } from './compare-file.ts';
import { labAssertions, readBudget } from './budget.ts';
import { analyzeLabOption } from './lab-options.ts';
import type { LabProfileName } from '../lab/lab-types.ts';
import { readOutputFiles, type OutputFile } from './outputs/index.ts';
import type { FailOn, Gates } from './exit-status.ts';

export const DEFAULT_CONCURRENCY = 4;
/** Enough to keep a run fast without looking like an attack on one small site. */
export const MAX_CONCURRENCY = 16;
/** Ten minutes; far beyond any sensible page, and well inside what a timer can hold. */
const MAX_TIMEOUT_MS = 600_000;

export interface AnalyzeOptions {
  /** URLs as given (arguments first, then the file's lines); checked later, one by one. */
  targets: string[];
  json: boolean;
  concurrency: number;
  timeoutMs: number | undefined;
  /** --compare: the earlier run's results by URL */
  compare: EarlierResults | undefined;
  gates: Gates;
  /** --output (with --format): report files written once every URL is done */
  outputs: OutputFile[];
  /** --render: also load each page in Chromium and compare what JavaScript changed */
  render: boolean;
  /** --lab: also make a lab audit of each page under this profile (--lab-profile); undefined without */
  lab: LabProfileName | undefined;
}

function integerOption(args: ParsedArgs, name: string, min: number, max: number): number | undefined {
  const raw = args.values[name];
  if (typeof raw !== 'string') return undefined;
  const value = Number(raw);
  if (!/^\d+$/.test(raw) || value < min || value > max) {
    throw new UsageError(`--${name} must be a whole number from ${min} to ${max}; got "${raw}".`);
  }
  return value;
}

function failOnOption(args: ParsedArgs): FailOn | undefined {
  const raw = args.values['fail-on'];
  if (raw === undefined) return undefined;
  if (raw !== 'bad' && raw !== 'decent') throw new UsageError(`--fail-on must be "bad" or "decent"; got "${String(raw)}".`);
  return raw;
}

/** One URL a line; blank lines and lines starting with # are skipped. */
function urlsInList(text: string): string[] {
  return text
    .replace(/^\uFEFF/, '')
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'));
}

async function urlsInFile(path: string): Promise<string[]> {
  try {
    return urlsInList(await readFile(path, 'utf8'));
  } catch (error) {
    throw new UsageError(`Cannot read --file ${path}: ${error instanceof Error ? error.message : String(error)}`);
  }
}

export async function readAnalyzeOptions(args: ParsedArgs): Promise<AnalyzeOptions> {
  const file = args.values.file;
  const targets = [...args.positionals, ...(typeof file === 'string' ? await urlsInFile(file) : [])];
  if (targets.length === 0) throw new UsageError('Name at least one URL, as an argument or with --file.');
  const concurrency = integerOption(args, 'concurrency', 1, MAX_CONCURRENCY) ?? DEFAULT_CONCURRENCY;
  const timeoutMs = integerOption(args, 'timeout', 1, MAX_TIMEOUT_MS);
  const failOnRegression = args.values['fail-on-regression'] === true;
  const gates: Gates = { failOn: failOnOption(args), minScore: integerOption(args, 'min-score', 0, 100), failOnRegression };
  const compare = args.values.compare;
  if (failOnRegression && typeof compare !== 'string') {
    throw new UsageError('--fail-on-regression needs --compare <file>: an earlier `analyze --json` output to compare with.');
  }
  const lab = analyzeLabOption(args);
  const outputs = await readOutputFiles(args);
  const budget = args.values.budget;
  if (typeof budget === 'string') {
    gates.budget = await readBudget(budget);
    const needLab = labAssertions(gates.budget);
    if (needLab.length > 0 && lab === undefined) {
      throw new UsageError(`--budget ${budget} sets ${needLab.join(' and ')}, which only a lab audit measures: add --lab.`);
    }
  }
  return {
    targets,
    json: args.values.json === true,
    concurrency,
    timeoutMs,
    // Read last, once every cheaper option is known to be right.
    compare: typeof compare === 'string' ? await readEarlierResults(compare) : undefined,
    gates,
    outputs,
    render: args.values.render === true,
    lab,
  };
}
