// The options of `analyze`, checked: anything out of range is a usage error (exit code 2). A config file
// (--config, or ./pagegrade.config.json: config-file.ts) gives values the command line has not given.
import { readFile } from 'node:fs/promises';
import { UsageError, type ParsedArgs } from './command.ts';
import { readEarlierResults, type EarlierResults } from './compare-file.ts';
import { labAssertions, readBudget, type Budget } from './budget.ts';
import { CONFIG_FILE_NAME, findConfigFile, writableConfigOutputs, type ConfigFile } from './config-file.ts';
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
  /** what asks for Chromium, as the user wrote it ("--render", "\"lab\": true in ci.json"); empty when nothing does */
  needsChromium: string[];
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

/** The budget's lab assertions need a lab audit: without one they could never be judged. */
function checkBudgetLab(budget: Budget, lab: LabProfileName | undefined, source: string, advice: string): void {
  const needLab = labAssertions(budget);
  if (needLab.length > 0 && lab === undefined) throw new UsageError(`${source} sets ${needLab.join(' and ')}, which only a lab audit measures: ${advice}`);
}

async function budgetOf(args: ParsedArgs, config: ConfigFile | undefined, lab: LabProfileName | undefined): Promise<Budget | undefined> {
  const path = args.values.budget;
  if (typeof path === 'string') {
    const budget = await readBudget(path);
    checkBudgetLab(budget, lab, `--budget ${path}`, 'add --lab.');
    return budget;
  }
  if (config?.budget) checkBudgetLab(config.budget, lab, `${config.name}: "budget"`, 'add "lab": true or --lab');
  return config?.budget;
}

/** The switches that need Chromium, named where they were set: the command line wins over the file. */
function chromiumSwitches(args: ParsedArgs, config: ConfigFile | undefined): string[] {
  return (['render', 'lab'] as const).flatMap((name) => {
    if (args.values[name] === true) return [`--${name}`];
    return config?.[name] === true ? [`"${name}": true in ${config.name}`] : [];
  });
}

/** `cwd`: where ./pagegrade.config.json is looked for (relative --output paths resolve against the process's). */
export async function readAnalyzeOptions(args: ParsedArgs, cwd = process.cwd()): Promise<AnalyzeOptions> {
  const file = args.values.file;
  // Naming URLs means arguments or --file, even a --file without any: then the config file's are not used.
  const namesUrls = args.positionals.length > 0 || typeof file === 'string';
  const named = [...args.positionals, ...(typeof file === 'string' ? await urlsInFile(file) : [])];
  const given = args.values.config;
  const config = await findConfigFile(typeof given === 'string' ? given : undefined, namesUrls, cwd);
  const targets = namesUrls ? named : (config?.urls ?? []);
  if (targets.length === 0) {
    throw new UsageError(
      config && !namesUrls
        ? `${config.name} has no "urls": name the URLs there, as arguments or with --file.`
        : `Name at least one URL, as an argument, with --file or in ${CONFIG_FILE_NAME}'s "urls".`,
    );
  }
  const concurrency = integerOption(args, 'concurrency', 1, MAX_CONCURRENCY) ?? DEFAULT_CONCURRENCY;
  const timeoutMs = integerOption(args, 'timeout', 1, MAX_TIMEOUT_MS);
  const failOnRegression = args.values['fail-on-regression'] === true;
  const gates: Gates = {
    failOn: failOnOption(args) ?? config?.failOn,
    minScore: integerOption(args, 'min-score', 0, 100) ?? config?.minScore,
    failOnRegression,
  };
  const compare = args.values.compare;
  if (failOnRegression && typeof compare !== 'string') {
    throw new UsageError('--fail-on-regression needs --compare <file>: an earlier `analyze --json` output to compare with.');
  }
  const lab = analyzeLabOption(args, config?.lab === true);
  const commandLineOutputs = await readOutputFiles(args);
  // Any --output replaces the file's whole list, which is then neither checked nor written.
  const outputs = commandLineOutputs.length > 0 || !config ? commandLineOutputs : await writableConfigOutputs(config);
  const budget = await budgetOf(args, config, lab);
  if (budget) gates.budget = budget;
  return {
    targets,
    json: args.values.json === true,
    concurrency,
    timeoutMs,
    // Read last, once every cheaper option is known to be right.
    compare: typeof compare === 'string' ? await readEarlierResults(compare) : undefined,
    gates,
    outputs,
    render: args.values.render === true || config?.render === true,
    lab,
    needsChromium: chromiumSwitches(args, config),
  };
}
