// `--output x.sarif`: SARIF 2.1.0, so code-scanning tools list failed checks as alerts. One run; its
// tool is pagegrade at its version; its rules are the check catalogue; one result per failed check per
// URL, except the structured-data checks, which give one result per error at its line of the page
// (docs/structured-data.md, "The command line"). A URL that could not be analysed is an error
// notification of the run's invocation. How the results are located, so GitHub code scanning takes the
// file: docs/cli.md, "SARIF and GitHub code scanning".
import type { Analysis, CheckResult } from '../../analysis/types.ts';
import type { Importance } from '../../checks/check.ts';
import { allChecks } from '../../checks/index.ts';
import { describeItem, titleOf } from '../report-text.ts';
import { FINDING_CHECKS, findingsOf } from '../structured-findings.ts';
import { truncate } from '../terminal-text.ts';
import type { UrlOutcome } from '../url-outcome.ts';
import { pagegradeVersion } from '../version.ts';

const SCHEMA = 'https://json.schemastore.org/sarif-2.1.0.json';
const LEVELS: Record<Importance, 'error' | 'warning' | 'note'> = { high: 'error', medium: 'warning', low: 'note' };
/** The message names a few items of each kind and counts the rest; the full list is in the JSON report. */
const ITEMS_PER_KIND = 3;
const MAX_ITEM_CHARS = 200;

/** "Title" from "title", "404Page" from "404_page": the rule's name, an identifier people can read. */
function ruleName(id: string): string {
  return id
    .split('_')
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join('');
}

const rules = allChecks.map((check) => ({
  id: check.id,
  name: ruleName(check.id),
  shortDescription: { text: check.title },
  fullDescription: { text: check.description },
  help: { text: check.howToFix },
  defaultConfiguration: { level: LEVELS[check.importance] },
  properties: { category: check.category, importance: check.importance },
}));
const ruleIndex = new Map(rules.map((rule, index) => [rule.id, index]));

function itemsSummary(errors: CheckResult['errors']): string {
  return Object.entries(errors ?? {})
    .map(([kind, items]) => {
      const shown = items.slice(0, ITEMS_PER_KIND).map((item) => truncate(describeItem(item), MAX_ITEM_CHARS));
      const more = items.length > ITEMS_PER_KIND ? ` and ${items.length - ITEMS_PER_KIND} more` : '';
      return `${kind.replaceAll('_', ' ')}: ${shown.join('; ')}${more}`;
    })
    .join('. ');
}

/** What a URL's path may not hold as it is: ":" (a port) would read as a scheme, "?" start a query, "[]" delimit IPv6. */
const NOT_IN_PATH = /[:?[\]]/g;

/**
 * Where a result is. Code scanning needs a physical location with a relative path (an absolute URI of
 * another scheme than the checkout's file: is refused), so the page's host and path, e.g.
 * "example.com/blog/post", stand for it, at line 1 (a check's finding about the page as a whole) or at
 * the line of the HTML a structured-data finding is on; the URL itself is the logical location. An
 * input that is no URL at all (it could not be analysed) has none.
 */
function locationsOf(url: string, startLine = 1) {
  if (!URL.canParse(url)) return [];
  const { host, pathname, search } = new URL(url);
  const uri = `${host}${pathname}${search}`.replace(NOT_IN_PATH, (char) => encodeURIComponent(char));
  return [
    {
      physicalLocation: { artifactLocation: { uri }, region: { startLine } },
      logicalLocations: [{ fullyQualifiedName: url, kind: 'resource' }],
    },
  ];
}

function resultsOf(analysis: Analysis) {
  return Object.entries(analysis.results)
    .filter(([, result]) => result.passed === false)
    .flatMap(([id, result]) => {
      const index = ruleIndex.get(id);
      const common = {
        ruleId: id,
        ...(index === undefined ? {} : { ruleIndex: index }),
        level: LEVELS[result.importance],
      };
      const properties = { url: analysis.url, category: result.category, importance: result.importance, score: analysis.score, verdict: analysis.result };
      // A structured-data check that failed without listing an error (none is expected) still gives its result.
      const findings = FINDING_CHECKS.has(id) ? findingResults(analysis.url, id, result, common, properties) : [];
      if (findings.length > 0) return findings;
      const summary = itemsSummary(result.errors);
      return [
        {
          ...common,
          message: { text: summary === '' ? `${titleOf(id, false)}.` : `${titleOf(id, false)}: ${summary}.` },
          locations: locationsOf(analysis.url),
          // The same alert across runs: this check on this URL (code scanning cannot hash a line of a page).
          partialFingerprints: { 'pagegradeCheck/v1': `${analysis.url} ${id}` },
          properties,
        },
      ];
    });
}

/**
 * A result per error item of a structured-data check, at its line. The fingerprint is the finding's
 * fields but its line, so the alert stays one alert when lines above it move; a finding that says the
 * same as an earlier one (two offers with the same mistake) is told apart by its rank among them.
 */
function findingResults<Common extends object, Properties extends object>(url: string, id: string, result: CheckResult, common: Common, properties: Properties) {
  const seen = new Map<string, number>();
  return findingsOf(id, result.errors).map((finding) => {
    const { line: _line, ...identity } = finding.fields;
    const said = Object.values(identity).map((value) => (typeof value === 'string' ? value : JSON.stringify(value)));
    const key = [url, id, finding.kind, ...said].join(' ');
    const rank = (seen.get(key) ?? 0) + 1;
    seen.set(key, rank);
    return {
      ...common,
      message: { text: finding.text },
      locations: locationsOf(url, finding.line),
      partialFingerprints: { 'pagegradeCheck/v1': rank === 1 ? key : `${key} #${rank}` },
      properties: { ...finding.fields, kind: finding.kind, ...properties },
    };
  });
}

export function renderSarif(outcomes: readonly UrlOutcome[]): string {
  const notAnalyzed = outcomes.flatMap((outcome) => ('error' in outcome ? [outcome] : []));
  const log = {
    $schema: SCHEMA,
    version: '2.1.0',
    runs: [
      {
        tool: { driver: { name: 'pagegrade', version: pagegradeVersion(), semanticVersion: pagegradeVersion(), rules } },
        invocations: [
          {
            executionSuccessful: notAnalyzed.length === 0,
            toolExecutionNotifications: notAnalyzed.map(({ url, error }) => ({
              level: 'error',
              message: { text: `${url} could not be analysed: ${error}` },
              locations: locationsOf(url),
            })),
          },
        ],
        results: outcomes.flatMap((outcome) => ('analysis' in outcome ? resultsOf(outcome.analysis) : [])),
      },
    ],
  };
  return `${JSON.stringify(log, null, 2)}\n`;
}
