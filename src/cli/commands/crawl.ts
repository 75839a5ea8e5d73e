// `crawl`: audit a whole site in-process, for CI and for people without a server. The crawl runs as it
// does on a server (the same services, jobs and site checks) on a temporary SQLite database that is
// deleted afterwards; the site's score, issues and pages are printed (or written as JSON or CSV).
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError, loadConfig, type Config } from '../../config.ts';
import type { CrawlPage } from '../../services/crawl-view.ts';
import { ValidationError } from '../../services/errors.ts';
import { UsageError, type Command, type ParsedArgs } from '../command.ts';
import { writeCrawlCsv } from '../crawl-csv.ts';
import { renderCrawlText, type CrawlOutcome } from '../crawl-text.ts';
import { createCrawlProgress } from '../crawl-progress.ts';
import { createStyle, wantsColour } from '../terminal-text.ts';
import { usingServices } from '../using-services.ts';

const DETAILS = `Options:
  --max-pages <n>      HTML pages to analyse at most (default 100; at most PAGEGRADE_CRAWL_MAX_PAGES)
  --max-depth <n>      clicks from the start page, 0 to 50 (default 10)
  --no-sitemap         do not also crawl the URLs of the site's sitemaps
  --render             also load each page in headless Chromium (PAGEGRADE_CHROMIUM_PATH): its report says
                       what JavaScript changes, judged by the javascript_dependency check
  --json               print {"crawl", "issues", "pages"} as JSON instead of the summary
  --csv <file>         also write every page (url, status, depth, title, score, result, inlinks, error) as CSV
  --fail-on <verdict>  bad: exit 1 when the site is graded bad; decent: when decent or bad
  --fail-on-issues <importance>
                       high: exit 1 when a high-importance site check finds anything; medium: high or
                       medium; low: any finding

Exit codes: 2 usage error; 3 the crawl failed (the start page unreachable, no HTML page); 1 a
--fail-on gate failed; 0 otherwise. Progress goes to stderr. The crawl obeys robots.txt and Crawl-delay
and makes PAGEGRADE_CRAWL_CONCURRENCY (default 2) requests at once. Private and loopback addresses
are refused unless PAGEGRADE_ALLOW_PRIVATE_URLS=1.`;

const VERDICTS = ['bad', 'decent'] as const;
const IMPORTANCES = ['high', 'medium', 'low'] as const;
const PAGES_PER_READ = 100;
const POLL_MS = 200;

interface CrawlOptions {
  url: string;
  maxPages: number | undefined;
  maxDepth: number | undefined;
  sitemap: boolean;
  render: boolean;
  json: boolean;
  csv: string | undefined;
  failOn: (typeof VERDICTS)[number] | undefined;
  failOnIssues: (typeof IMPORTANCES)[number] | undefined;
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

function readOptions(args: ParsedArgs): CrawlOptions {
  if (args.positionals.length !== 1) throw new UsageError('Give exactly one start URL.');
  return {
    url: args.positionals[0],
    maxPages: integerOption(args, 'max-pages'),
    maxDepth: integerOption(args, 'max-depth'),
    sitemap: args.values['no-sitemap'] !== true,
    render: args.values.render === true,
    json: args.values.json === true,
    csv: typeof args.values.csv === 'string' ? args.values.csv : undefined,
    failOn: choice(args, 'fail-on', VERDICTS),
    failOnIssues: choice(args, 'fail-on-issues', IMPORTANCES),
  };
}

function configFor(env: NodeJS.ProcessEnv, databaseUrl: string): Config {
  try {
    return { ...loadConfig(env), databaseUrl, logLevel: false };
  } catch (error) {
    if (error instanceof ConfigError) throw new UsageError(error.message);
    throw error;
  }
}

function gateBroken(outcome: CrawlOutcome, options: CrawlOptions): string[] {
  const broken: string[] = [];
  const { crawl } = outcome;
  if (options.failOn !== undefined && crawl.result !== null) {
    const failing = options.failOn === 'bad' ? ['bad'] : ['bad', 'decent'];
    if (failing.includes(crawl.result)) broken.push(`the site is graded ${crawl.result} (score ${crawl.score}), and --fail-on is ${options.failOn}`);
  }
  if (options.failOnIssues !== undefined) {
    const counted = IMPORTANCES.slice(0, IMPORTANCES.indexOf(options.failOnIssues) + 1);
    const found = counted.reduce((sum, importance) => sum + crawl.issues[importance], 0);
    if (found > 0) broken.push(`${found} site issue${found === 1 ? '' : 's'} of importance ${counted.join(' or ')}, and --fail-on-issues is ${options.failOnIssues}`);
  }
  return broken;
}

export const crawl: Command = {
  name: 'crawl',
  summary: 'Audit a whole site without a server: crawl it, print its score, site issues and pages.',
  usage: 'crawl <url> [--max-pages <n>] [--max-depth <n>] [--no-sitemap] [--render] [--json] [--csv <file>] [--fail-on bad|decent] [--fail-on-issues high|medium|low]',
  details: DETAILS,
  options: {
    'max-pages': { type: 'string' },
    'max-depth': { type: 'string' },
    'no-sitemap': { type: 'boolean' },
    render: { type: 'boolean' },
    json: { type: 'boolean' },
    csv: { type: 'string' },
    'fail-on': { type: 'string' },
    'fail-on-issues': { type: 'string' },
  },
  allowPositionals: true,
  async run(args, io) {
    const options = readOptions(args);
    const directory = await mkdtemp(join(tmpdir(), 'pagegrade-crawl-'));
    try {
      const config = configFor(io.env, `sqlite:${join(directory, 'crawl.db')}`);
      const { outcome, bounds } = await usingServices(config, async (services) => {
        const { account } = await services.accounts.createUser('cli@pagegrade.invalid', false);
        let started;
        try {
          started = await services.crawls.start(account.id, {
            url: options.url,
            maxPages: options.maxPages,
            maxDepth: options.maxDepth,
            sitemap: options.sitemap,
            render: options.render,
          });
        } catch (error) {
          // The service names API fields; the command line names its options.
          if (error instanceof ValidationError && error.field === 'render') {
            throw new UsageError(`--render needs Chromium, and there is none at ${config.chromiumPath} (set PAGEGRADE_CHROMIUM_PATH, or apt-get install chromium).`);
          }
          if (error instanceof ValidationError) throw new UsageError(error.message.replace(/\bmax_(pages|depth)\b/g, '--max-$1'));
          throw error;
        }
        services.background.start(Math.max(config.workers, config.crawlConcurrency + 1));
        const progress = createCrawlProgress(io.stderr);
        let current = started;
        while (current.state === 'queued' || current.state === 'running') {
          await new Promise((resolve) => setTimeout(resolve, POLL_MS));
          current = await services.crawls.show(account.id, started.id);
          progress.update(current);
        }
        progress.end();
        const issues = await services.crawls.issues(account.id, started.id);
        const pages: CrawlPage[] = [];
        for (let page = 1; ; page++) {
          const read = await services.lists.crawlPages(account.id, started.id, { sortBy: 'url', sort: 'asc', page, perPage: PAGES_PER_READ });
          pages.push(...read.items);
          if (pages.length >= read.total || read.items.length === 0) break;
        }
        // Which bounds cut the crawl short, for the line that says so (not part of --json).
        const bounds = await services.crawls.bounds(account.id, started.id);
        return { outcome: { crawl: current, issues, pages }, bounds };
      });
      if (options.csv !== undefined) await writeCrawlCsv(options.csv, outcome.pages);
      io.stdout.write(options.json ? `${JSON.stringify(outcome, null, 2)}\n` : renderCrawlText(outcome, createStyle(wantsColour(io.stdout, io.env)), bounds));
      if (outcome.crawl.state !== 'done') {
        io.stderr.write(`The crawl failed: ${outcome.crawl.error ?? outcome.crawl.state}\n`);
        return 3;
      }
      const broken = gateBroken(outcome, options);
      for (const line of broken) io.stderr.write(`Gate failed: ${line}.\n`);
      return broken.length > 0 ? 1 : 0;
    } finally {
      await rm(directory, { recursive: true, force: true });
    }
  },
};
