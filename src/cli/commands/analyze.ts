// `analyze`: run the engine in-process over one or more URLs, print a report or JSON, and set the
// exit code for CI gates. Uses the same analyzer the API uses (analyzerFromConfig).
import { ConfigError, loadConfig, type Config } from '../../config.ts';
import { analyzerFromConfig, rendererFromConfig } from '../../services/index.ts';
import { UsageError, type Command } from '../command.ts';
import { DEFAULT_CONCURRENCY, MAX_CONCURRENCY, readAnalyzeOptions } from '../analyze-options.ts';
import { CONFIG_FILE_NAME } from '../config-file.ts';
import { renderJson, renderProblems, renderText } from '../analyze-output.ts';
import { withComparison } from '../comparison.ts';
import { exitCodeFor } from '../exit-status.ts';
import { noChromiumSentence } from '../no-chromium.ts';
import { writeOutputFiles } from '../outputs/index.ts';
import { createProgress } from '../progress.ts';
import { runPool } from '../run-pool.ts';
import { createStyle, wantsColour } from '../terminal-text.ts';
import { analyzeTarget } from '../url-outcome.ts';

const DETAILS = `Options:
  --config <file>      read options from this JSON file (docs/cli.md, "A config file for pipelines"):
                       {"urls": [...], "budget": {...}, "outputs": ["report.html"], "render": false,
                       "lab": false, "fail_on": "bad", "min_score": 70}, every key optional. Its urls
                       are analysed when no URL is named (as an argument or with --file); an option
                       on the command line replaces its value (any --output the whole "outputs");
                       "outputs" are relative to the file's folder. Without --config and without
                       URLs, ./${CONFIG_FILE_NAME} is read when there is one
  --json               print the results as JSON: the API report's fields (url, result, score, issues,
                       page, results, generated_at); an array for several URLs, where a URL that could
                       not be analysed is {"url", "error"}
  --file <path>        also read URLs from a file, one a line (blank lines and # comments skipped)
  --render             also load each page in headless Chromium (PAGEGRADE_CHROMIUM_PATH) and show what
                       JavaScript changes: title, description, canonical, robots, h1, links, words,
                       JSON-LD types ("rendered" in --json), judged by the javascript_dependency check
  --lab                also make a lab audit of each page in headless Chromium (PAGEGRADE_CHROMIUM_PATH),
                       as Lighthouse does: loaded cold under --lab-profile's screen, CPU and network, its
                       Core Web Vitals (LCP, CLS, TBT, FCP; TTFB and load too) with their bands, its page
                       weight, its LCP element and axe-core's accessibility rules, judged by the lab
                       and accessibility checks ("lab" in --json). Audits run one at a time
                       (PAGEGRADE_LAB_CONCURRENCY, default 1), whatever --concurrency: timings taken
                       side by side disturb each other. Without Chromium: exit 2, as --render
  --lab-profile <name> mobile (the default: a phone's 412x823 screen, a 4x slower CPU, 1.6 Mbit/s with
                       150 ms round trips) or desktop (1350x940, the CPU as it is, 10 Mbit/s with 40 ms
                       round trips); needs --lab
  --concurrency <n>    pages analysed at once, 1 to ${MAX_CONCURRENCY} (default ${DEFAULT_CONCURRENCY})
  --timeout <ms>       whole-fetch deadline per page (default: PAGEGRADE_FETCH_TIMEOUT_MS, or 10000)
  --fail-on <verdict>  bad: exit 1 when any page is graded bad; decent: when any is decent or bad
  --min-score <n>      exit 1 when any page scores below n (0 to 100)
  --compare <file>     say what changed against an earlier --json output (matched by url): score,
                       verdict, checks newly failing and fixed. With --json each analysed URL gets
                       "comparison": the API's diff without report and run ids (from, to, score_delta,
                       result_changed, newly_failed, fixed, still_failing) plus "regressed", or null
                       when the file has no result for the URL
  --fail-on-regression exit 1 when any page got worse than in --compare's file, by the rule of the
                       report.regressed alert: verdict down, score fell by PAGEGRADE_ALERT_SCORE_DROP
                       (default 10) or more, or a high-importance check newly failing
  --output <file>      also write the results to a file (repeatable), in the format its name ends in:
                       .json (as --json), .html (the web report page in one file; several URLs: each
                       report in turn), .junit.xml or .xml (JUnit: a suite per URL, a test case per
                       check that applied), .sarif or .sarif.json (SARIF 2.1.0: a result per failed check,
                       ready for GitHub code scanning: docs/cli.md)
  --format <format>    json, html, junit or sarif: the format of the --output right after it
  --budget <file>      exit 1 when any page breaks an assertion of this JSON file, each broken one said
                       on stderr: {"min_score": 80, "categories": {"seo": 90}, "must_pass": ["title"],
                       "max_failed": {"high": 0, "medium": 3, "low": 10}}, every key optional. Category
                       scores are the score's fraction over that category; one with no applicable check,
                       or a must_pass check that does not apply, is not judged (a note says so).
                       With --lab also "lab": {"lcp_ms": 2500, "cls": 0.1, "tbt_ms": 200, "fcp_ms":
                       1800} (each the most the page's lab metric may be) and "categories":
                       {"accessibility": 90}; a metric the audit did not measure is not judged (a note)

Exit codes (the first that applies):
  2  usage error: unknown option, bad value, no URL, a bad --config, --file, --compare, --budget or --output, bad setting, no Chromium
  3  one or more URLs could not be analysed (invalid, unreachable, not HTML, too large, ...)
  1  a --fail-on, --min-score, --fail-on-regression or --budget gate failed
  0  every URL was analysed and no gate failed

Several URLs show progress on stderr and end with a summary table. Colours only on a terminal;
NO_COLOR turns them off, FORCE_COLOR on. Private and loopback addresses are refused unless
PAGEGRADE_ALLOW_PRIVATE_URLS=1. \`pagegrade analyse\` is the same command.`;

function configFor(env: NodeJS.ProcessEnv, timeoutMs: number | undefined): Config {
  try {
    const config = loadConfig(env);
    return timeoutMs === undefined ? config : { ...config, fetchTimeoutMs: timeoutMs };
  } catch (error) {
    // Exit code 1 means "a gate failed" here, so a bad setting is a usage error instead.
    if (error instanceof ConfigError) throw new UsageError(error.message);
    throw error;
  }
}

export const analyze: Command = {
  name: 'analyze',
  summary: 'Analyse pages without a server and print a report (or JSON); exit codes for CI gates.',
  usage:
    'analyze <url...> [--config <file>] [--file <path>] [--json] [--render] [--lab [--lab-profile mobile|desktop]] [--fail-on bad|decent] [--min-score <n>] [--compare <file> [--fail-on-regression]] [--budget <file>] [[--format <format>] --output <file>]... [--concurrency <n>] [--timeout <ms>]',
  details: DETAILS,
  options: {
    json: { type: 'boolean' },
    config: { type: 'string' },
    file: { type: 'string' },
    concurrency: { type: 'string' },
    timeout: { type: 'string' },
    'fail-on': { type: 'string' },
    'min-score': { type: 'string' },
    compare: { type: 'string' },
    'fail-on-regression': { type: 'boolean' },
    output: { type: 'string', multiple: true },
    format: { type: 'string', multiple: true },
    budget: { type: 'string' },
    render: { type: 'boolean' },
    lab: { type: 'boolean' },
    'lab-profile': { type: 'string' },
  },
  allowPositionals: true,
  async run(args, io) {
    const options = await readAnalyzeOptions(args);
    // A check that throws is recorded as not applicable; say so on stderr so it gets reported.
    const config = configFor(io.env, options.timeoutMs);
    // One renderer for every URL: its one browser, and its gate that lets one lab audit run at a time.
    const renderer = options.render || options.lab ? rendererFromConfig(config) : undefined;
    if (renderer === null) throw new UsageError(noChromiumSentence(options.needsChromium, config.chromiumPath));
    const analyzeUrl = analyzerFromConfig(
      config,
      (checkId, error) => io.stderr.write(`pagegrade: internal error in check ${checkId}: ${error instanceof Error ? error.message : String(error)}\n`),
      renderer,
    );
    const lab = options.lab;
    const analyzer = (url: string) => analyzeUrl(url, { render: options.render, ...(lab && { lab }) });
    const progress = options.targets.length > 1 ? createProgress(io.stderr, options.targets.length) : undefined;
    const outcomes = await runPool(options.targets, options.concurrency, async (target) => {
      const outcome = await analyzeTarget(analyzer, target);
      progress?.finished(outcome);
      return options.compare ? withComparison(outcome, options.compare, config.alertScoreDrop) : outcome;
    });
    progress?.end();
    await renderer?.close();
    io.stdout.write(options.json ? renderJson(outcomes) : renderText(outcomes, createStyle(wantsColour(io.stdout, io.env))));
    await writeOutputFiles(options.outputs, outcomes);
    io.stderr.write(renderProblems(outcomes, options.gates));
    return exitCodeFor(outcomes, options.gates);
  },
};
