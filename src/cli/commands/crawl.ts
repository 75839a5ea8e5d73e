// `crawl`: audit a whole site in-process, for CI and for people without a server. The crawl runs as it
// does on a server (the same services, jobs and site checks) on a temporary SQLite database that is
// deleted afterwards; the site's score, issues and pages are printed (or written as JSON, CSV and the
// --output files), and the gates set the exit code (docs/cli.md, "pagegrade crawl").
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError, loadConfig, type Config } from '../../config.ts';
import type { CrawlPage } from '../../services/crawl-view.ts';
import { ValidationError } from '../../services/errors.ts';
import { UsageError, type Command } from '../command.ts';
import { checkCrawlBudget } from '../crawl-budget.ts';
import { compareCrawls, crawlSnapshot, renderCrawlComparison, type CrawlComparison } from '../crawl-compare.ts';
import { writeCrawlCsv } from '../crawl-csv.ts';
import { crawlUsageError, IMPORTANCES, readCrawlOptions, type CrawlOptions } from '../crawl-options.ts';
import { renderCrawlJson, writeCrawlOutputs, type CrawlReport } from '../crawl-outputs.ts';
import { renderCrawlText } from '../crawl-text.ts';
import { createCrawlProgress } from '../crawl-progress.ts';
import { createStyle, wantsColour } from '../terminal-text.ts';
import { usingServices } from '../using-services.ts';

const DETAILS = `Options:
  --max-pages <n>      HTML pages to analyse at most (default 100; at most PAGEGRADE_CRAWL_MAX_PAGES)
  --max-depth <n>      clicks from the start page, 0 to 50 (default 10)
  --no-sitemap         do not also crawl the URLs of the site's sitemaps
  --render             also load each page in headless Chromium (PAGEGRADE_CHROMIUM_PATH): its report says
                       what JavaScript changes, judged by the javascript_dependency check
  --lab                also make a lab audit (analyze --lab: Core Web Vitals, page weight, accessibility)
                       of up to --lab-pages of the crawled HTML pages, picked to cover the site's URL
                       templates (/product/{n}); "lab" in --json's crawl
  --lab-pages <n>      pages that get a lab audit, 1 to 200 (default 20); needs --lab
  --lab-profile <name> mobile (default) or desktop, as for analyze; needs --lab
  --include <patterns> crawl only the URLs whose path (and query) matches one of these patterns
                       (repeatable, comma-separated; * any run but /, ** any run), e.g. '/blog/**'
  --exclude <patterns> never fetch the URLs matching one of these patterns (repeatable, comma-separated)
  --strip-params <names>
                       query parameters removed from every URL of the site before it is crawled
                       (repeatable, comma-separated; utm_* a prefix), e.g. utm_*,sessionid
  --header 'Name: value'
                       a request header sent to the crawled host only (repeatable, at most 10), e.g.
                       'Cookie: staging=1' or 'Authorization: Basic ...'; never printed nor written
  --user-agent <preset>
                       default, desktop, mobile, googlebot_smartphone or googlebot_desktop: the
                       User-Agent sent, and the robots.txt group obeyed
  --urls <file>        list mode: audit exactly these URLs (one a line; blank and # lines skipped),
                       following no link; no start URL then
  --no-external        do not check links to other hosts (broken_external_links does not apply)
  --json               print {"crawl", "issues", "pages"} as JSON instead of the summary ("diff" too
                       with --compare)
  --csv <file>         also write every page (url, status, depth, title, score, result, inlinks, error) as CSV
  --output <file>      also write the crawl to a file (repeatable), in the format its name ends in: .json
                       (as --json), .html (the crawl's report in one file), .junit.xml or .xml (JUnit: a
                       test case per site check), .sarif or .sarif.json (SARIF 2.1.0: a result per finding)
  --format <format>    json, html, junit or sarif: the format of the --output right after it
  --fail-on <verdict>  bad: exit 1 when the site is graded bad; decent: when decent or bad
  --fail-on-issues <importance>
                       high: exit 1 when a high-importance site check finds anything; medium: high or
                       medium; low: any finding
  --budget <file>      exit 1 when the crawl breaks an assertion of this JSON file, each broken one said
                       on stderr: {"min_score": 70, "max_issues": {"high": 0, "medium": 5, "low": 50}},
                       every key optional (max_issues: findings by importance)
  --compare <file>     say what changed against an earlier crawl --json output: score, verdict, each
                       site check's new, fixed and persisting findings, pages added, removed or with
                       another status
  --fail-on-regression exit 1 when the crawl got worse than --compare's, by the rule of the
                       crawl.regressed alert: score fell by PAGEGRADE_ALERT_SCORE_DROP (default 10) or
                       more, verdict down, or a new finding of a high-importance site check

Exit codes: 2 usage error (a bad option, header, file or setting, --render or --lab without Chromium;
nothing is requested); 3 the crawl failed (the start page unreachable, no HTML page); 1 a --fail-on,
--fail-on-issues, --budget or --fail-on-regression gate failed, each said on stderr; 0 otherwise. Progress goes to stderr. The crawl
obeys robots.txt and Crawl-delay and makes PAGEGRADE_CRAWL_CONCURRENCY (default 2) requests at once.
Private and loopback addresses are refused unless PAGEGRADE_ALLOW_PRIVATE_URLS=1.`;

const PAGES_PER_READ = 100;
const POLL_MS = 200;

function configFor(env: NodeJS.ProcessEnv, databaseUrl: string): Config {
  try {
    return { ...loadConfig(env), databaseUrl, logLevel: false };
  } catch (error) {
    if (error instanceof ConfigError) throw new UsageError(error.message);
    throw error;
  }
}

/** One sentence per gate that failed, each said on stderr. */
function gateBroken(report: CrawlReport, options: CrawlOptions, comparison: CrawlComparison | undefined): string[] {
  const broken: string[] = [];
  const { crawl } = report;
  if (options.failOn !== undefined && crawl.result !== null) {
    const failing = options.failOn === 'bad' ? ['bad'] : ['bad', 'decent'];
    if (failing.includes(crawl.result)) broken.push(`the site is graded ${crawl.result} (score ${crawl.score}), and --fail-on is ${options.failOn}`);
  }
  if (options.failOnIssues !== undefined) {
    const counted = IMPORTANCES.slice(0, IMPORTANCES.indexOf(options.failOnIssues) + 1);
    const found = counted.reduce((sum, importance) => sum + crawl.issues[importance], 0);
    if (found > 0) broken.push(`${found} site issue${found === 1 ? '' : 's'} of importance ${counted.join(' or ')}, and --fail-on-issues is ${options.failOnIssues}`);
  }
  if (options.budget !== undefined) broken.push(...checkCrawlBudget(crawl, options.budget));
  if (options.failOnRegression) broken.push(...(comparison?.reasons ?? []).map((reason) => `--fail-on-regression: ${reason}`));
  return broken.map((line) => line.replace(/\.$/, ''));
}

export const crawl: Command = {
  name: 'crawl',
  summary: 'Audit a whole site without a server: crawl it, print its score, site issues and pages.',
  usage:
    'crawl <url> | --urls <file> [--max-pages <n>] [--max-depth <n>] [--no-sitemap] [--render] [--lab [--lab-pages <n>] [--lab-profile mobile|desktop]] [--include <patterns>]... [--exclude <patterns>]... [--strip-params <names>]... [--header \'Name: value\']... [--user-agent <preset>] [--no-external] [--json] [--csv <file>] [[--format <format>] --output <file>]... [--fail-on bad|decent] [--fail-on-issues high|medium|low] [--budget <file>] [--compare <file> [--fail-on-regression]]',
  details: DETAILS,
  options: {
    'max-pages': { type: 'string' },
    'max-depth': { type: 'string' },
    'no-sitemap': { type: 'boolean' },
    render: { type: 'boolean' },
    lab: { type: 'boolean' },
    'lab-pages': { type: 'string' },
    'lab-profile': { type: 'string' },
    include: { type: 'string', multiple: true },
    exclude: { type: 'string', multiple: true },
    'strip-params': { type: 'string', multiple: true },
    header: { type: 'string', multiple: true },
    'user-agent': { type: 'string' },
    urls: { type: 'string' },
    'no-external': { type: 'boolean' },
    json: { type: 'boolean' },
    csv: { type: 'string' },
    output: { type: 'string', multiple: true },
    format: { type: 'string', multiple: true },
    'fail-on': { type: 'string' },
    'fail-on-issues': { type: 'string' },
    budget: { type: 'string' },
    compare: { type: 'string' },
    'fail-on-regression': { type: 'boolean' },
  },
  allowPositionals: true,
  async run(args, io) {
    const options = await readCrawlOptions(args);
    // --lab: the API's lab=1 with lab_pages and lab_profile (docs/lab.md, "Lab audits of a crawl").
    const lab = options.lab === undefined ? {} : { lab: true, labPages: options.lab.pages, labProfile: options.lab.profile };
    const directory = await mkdtemp(join(tmpdir(), 'pagegrade-crawl-'));
    try {
      const config = configFor(io.env, `sqlite:${join(directory, 'crawl.db')}`);
      const { report, bounds } = await usingServices(config, async (services) => {
        const { account } = await services.accounts.createUser('cli@pagegrade.invalid', false);
        let started;
        try {
          // The service checks every field (headers, patterns, the list's URLs) before it stores or
          // requests anything: a refused one is a usage error here, and nothing was sent.
          started = await services.crawls.start(account.organization_id, { ...options.start, ...lab });
        } catch (error) {
          if (error instanceof ValidationError && (error.field === 'render' || error.field === 'lab')) {
            throw new UsageError(`--${error.field} needs Chromium, and there is none at ${config.chromiumPath} (set PAGEGRADE_CHROMIUM_PATH, or apt-get install chromium).`);
          }
          if (error instanceof ValidationError) throw crawlUsageError(error);
          throw error;
        }
        services.background.start(Math.max(config.workers, config.crawlConcurrency + 1));
        const progress = createCrawlProgress(io.stderr);
        let current = started;
        while (current.state === 'queued' || current.state === 'running') {
          await new Promise((resolve) => setTimeout(resolve, POLL_MS));
          current = await services.crawls.show(account.organization_id, started.id);
          progress.update(current);
        }
        progress.end();
        const issues = await services.crawls.issues(account.organization_id, started.id);
        // Every visited URL of the crawled host(s), a page of the list at a time.
        const pages: CrawlPage[] = [];
        for (let page = 1; ; page++) {
          const read = await services.lists.crawlPages(account.organization_id, started.id, {
            state: 'visited',
            scope: 'internal',
            sortBy: 'url',
            sort: 'asc',
            page,
            perPage: PAGES_PER_READ,
          });
          pages.push(...read.items);
          if (pages.length >= read.total || read.items.length === 0) break;
        }
        // Which bounds cut the crawl short, for the line that says so (not part of --json).
        const bounds = await services.crawls.bounds(account.organization_id, started.id);
        return { report: { crawl: current, issues, pages } as CrawlReport, bounds };
      });
      const done = report.crawl.state === 'done';
      const comparison = options.compare !== undefined && done
        ? compareCrawls(options.compare, crawlSnapshot(report.crawl, report.issues, report.pages), config.alertScoreDrop)
        : undefined;
      if (comparison !== undefined) report.diff = comparison.diff;
      if (options.csv !== undefined) await writeCrawlCsv(options.csv, report.pages);
      await writeCrawlOutputs(options.outputs, report);
      const style = createStyle(wantsColour(io.stdout, io.env));
      io.stdout.write(
        options.json
          ? renderCrawlJson(report)
          : renderCrawlText(report, style, bounds) + (comparison === undefined ? '' : renderCrawlComparison(comparison, style)),
      );
      if (!done) {
        io.stderr.write(`The crawl failed: ${report.crawl.error ?? report.crawl.state}\n`);
        return 3;
      }
      const broken = gateBroken(report, options, comparison);
      for (const line of broken) io.stderr.write(`Gate failed: ${line}.\n`);
      return broken.length > 0 ? 1 : 0;
    } finally {
      await rm(directory, { recursive: true, force: true });
    }
  },
};
