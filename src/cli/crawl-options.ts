// The options of `crawl`, checked and their files read before anything is started: a value the command
// line can judge on its own, a file that cannot be read or is not what it should be, is a usage error
// (exit code 2). What the crawl service judges (patterns, headers, the URLs of a list) is checked by
// its start, before any request, and mapped to these options' names (crawlUsageError).
import { open } from 'node:fs/promises';
import { parseCrawlHeaders } from '../crawl/crawl-headers.ts';
import { CRAWL_USER_AGENTS } from '../db/tables/crawl.table.ts';
import { ValidationError } from '../services/errors.ts';
import type { StartCrawlInput } from '../services/crawl.service.ts';
import { UsageError, type ParsedArgs } from './command.ts';
import { readCrawlBudget, type CrawlBudget } from './crawl-budget.ts';
import { readEarlierCrawl } from './crawl-compare.ts';
import type { CrawlSnapshot } from '../crawl/crawl-diff.ts';
import { readOutputFiles, type OutputFile } from './outputs/index.ts';
import { crawlLabOption, type CrawlLab } from './lab-options.ts';

const VERDICTS = ['bad', 'decent'] as const;
export const IMPORTANCES = ['high', 'medium', 'low'] as const;

/**
 * The largest --urls file read: a list of PAGEGRADE_CRAWL_MAX_PAGES URLs of ordinary length fits; a
 * file beyond it is no list of URLs to crawl.
 */
const MAX_URLS_FILE_BYTES = 64 * 1024 * 1024;

export interface CrawlOptions {
  /** what the crawl service's start is given */
  start: StartCrawlInput;
  json: boolean;
  csv: string | undefined;
  failOn: (typeof VERDICTS)[number] | undefined;
  failOnIssues: (typeof IMPORTANCES)[number] | undefined;
  /** --output files, written once the crawl has ended */
  outputs: OutputFile[];
  budget: CrawlBudget | undefined;
  /** --compare: the earlier crawl, as its --json output recorded it */
  compare: CrawlSnapshot | undefined;
  failOnRegression: boolean;
  /**
   * --lab (--lab-pages, --lab-profile): passed to the crawl as the API's lab=1, lab_pages and lab_profile.
   */
  lab: CrawlLab | undefined;
}

function integerOption(args: ParsedArgs, name: string): number | undefined {
  const value = args.values[name];
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || !/^\d+$/.test(value)) throw new UsageError(`--${name} must be a whole number.`);
  return Number(value);
}

function choice<T extends string>(args: ParsedArgs, name: string, allowed: readonly T[]): T | undefined {
  const value = args.values[name];
  if (value === undefined) return undefined;
  if (!allowed.includes(value as T)) throw new UsageError(`--${name} must be one of: ${allowed.join(', ')}.`);
  return value as T;
}

/** A repeatable option's values as given, in order. */
function repeated(args: ParsedArgs, name: string): string[] {
  const value = args.values[name];
  if (value === undefined) return [];
  return (Array.isArray(value) ? value : [value]).map(String);
}

/** --include, --exclude, --strip-params: repeatable, each value comma-separated; empty parts dropped. */
function listOption(args: ParsedArgs, name: string): string[] | undefined {
  const values = repeated(args, name).flatMap((value) => value.split(',')).map((part) => part.trim()).filter((part) => part !== '');
  return values.length === 0 ? undefined : values;
}

/**
 * --header 'Name: value', repeatable: the lines the service's `headers` takes, judged by its rules
 * (src/crawl/crawl-headers.ts). A value is never repeated in a message: it may be a password.
 */
function headerOption(args: ParsedArgs): string | undefined {
  const lines = repeated(args, 'header');
  for (const line of lines) {
    if (!line.includes(':')) throw new UsageError(`--header must be 'Name: value'; one --header has no ":".`);
  }
  if (lines.length === 0) return undefined;
  // The service's own rules, so a refused header stops the command before a database is even opened.
  const parsed = parseCrawlHeaders(lines);
  if (!parsed.ok) throw crawlUsageError(new ValidationError('headers', parsed.message));
  return lines.join('\n');
}

/** One URL a line; blank lines and lines starting with # are skipped. */
export function urlsInList(text: string): string[] {
  return text
    .replace(/^\uFEFF/, '')
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'));
}

async function urlsFile(path: string): Promise<string[]> {
  let text: string;
  try {
    const file = await open(path, 'r');
    try {
      if ((await file.stat()).size > MAX_URLS_FILE_BYTES) {
        throw new UsageError(`--urls ${path} is larger than ${MAX_URLS_FILE_BYTES / 1024 / 1024} MiB: no list of URLs to crawl is.`);
      }
      text = await file.readFile('utf8');
    } finally {
      await file.close();
    }
  } catch (error) {
    if (error instanceof UsageError) throw error;
    throw new UsageError(`Cannot read --urls ${path}: ${error instanceof Error ? error.message : String(error)}`);
  }
  const urls = urlsInList(text);
  if (urls.length === 0) throw new UsageError(`--urls ${path} lists no URL (one a line; blank lines and # lines are skipped).`);
  return urls;
}

async function startInput(args: ParsedArgs): Promise<StartCrawlInput> {
  const urlsPath = args.values.urls;
  if (typeof urlsPath === 'string') {
    if (args.positionals.length > 0) throw new UsageError('Give either a start URL or --urls <file>, not both.');
  } else if (args.positionals.length !== 1) {
    throw new UsageError('Give exactly one start URL (or --urls <file>).');
  }
  return {
    url: typeof urlsPath === 'string' ? undefined : args.positionals[0],
    urls: typeof urlsPath === 'string' ? await urlsFile(urlsPath) : undefined,
    maxPages: integerOption(args, 'max-pages'),
    maxDepth: integerOption(args, 'max-depth'),
    sitemap: args.values['no-sitemap'] !== true,
    render: args.values.render === true,
    external: args.values['no-external'] !== true,
    include: listOption(args, 'include'),
    exclude: listOption(args, 'exclude'),
    stripParams: listOption(args, 'strip-params'),
    headers: headerOption(args),
    userAgent: choice(args, 'user-agent', CRAWL_USER_AGENTS),
  };
}

export async function readCrawlOptions(args: ParsedArgs): Promise<CrawlOptions> {
  const start = await startInput(args);
  const lab = crawlLabOption(args);
  const failOnRegression = args.values['fail-on-regression'] === true;
  const compare = args.values.compare;
  if (failOnRegression && typeof compare !== 'string') {
    throw new UsageError('--fail-on-regression needs --compare <file>: an earlier `crawl --json` output to compare with.');
  }
  const outputs = await readOutputFiles(args);
  const budget = args.values.budget;
  return {
    start,
    json: args.values.json === true,
    csv: typeof args.values.csv === 'string' ? args.values.csv : undefined,
    failOn: choice(args, 'fail-on', VERDICTS),
    failOnIssues: choice(args, 'fail-on-issues', IMPORTANCES),
    outputs,
    budget: typeof budget === 'string' ? await readCrawlBudget(budget) : undefined,
    // Read last, once every cheaper option is known to be right.
    compare: typeof compare === 'string' ? await readEarlierCrawl(compare) : undefined,
    failOnRegression,
    lab,
  };
}

/** The service's field names as the command line's options. */
const OPTION_OF_FIELD: Record<string, string> = {
  max_pages: '--max-pages',
  max_depth: '--max-depth',
  include: '--include',
  exclude: '--exclude',
  strip_params: '--strip-params',
  headers: '--header',
  user_agent: '--user-agent',
  urls: '--urls',
  lab_pages: '--lab-pages',
  lab_profile: '--lab-profile',
};

/**
 * What the crawl service refused, in the command line's words: its message names the API's field
 * ("The max_pages must ...", "The headers may not name Host"), the usage error the option.
 */
export function crawlUsageError(error: ValidationError): UsageError {
  const option = OPTION_OF_FIELD[error.field];
  if (option === undefined) return new UsageError(error.message);
  const message = error.message
    .replace(/\b(max_pages|max_depth|strip_params|user_agent)\b/g, (field) => OPTION_OF_FIELD[field])
    // "The headers may ..." and "The header Host cannot ..." alike.
    .replace(new RegExp(`^The ${error.field === 'headers' ? 'headers?' : error.field}\\b`), `The ${option}`);
  return new UsageError(message.includes(option) ? message : `${option}: ${message}`);
}
