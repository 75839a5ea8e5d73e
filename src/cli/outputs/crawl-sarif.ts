// `crawl --output x.sarif`: SARIF 2.1.0. One run; its tool is pagegrade at its version, its rules the
// site checks of the catalogue (GET /api/v1/checks, category site); one result per finding kept in the
// crawl's issues, at the finding's URL (or the first page it concerns). A crawl that failed is an error
// notification of the run's invocation, with no result.
import type { Importance } from '../../checks/check.ts';
import { siteChecks } from '../../crawl/site-checks/index.ts';
import type { CrawlOutcome } from '../crawl-text.ts';
import { pagegradeVersion } from '../version.ts';
import { SITE_CHECKS, itemKey, itemLocation, itemText } from './crawl-items.ts';

const SCHEMA = 'https://json.schemastore.org/sarif-2.1.0.json';
const LEVELS: Record<Importance, 'error' | 'warning' | 'note'> = { high: 'error', medium: 'warning', low: 'note' };

/** "BrokenLinks" from "broken_links": the rule's name, an identifier people can read. */
const ruleName = (id: string) => id.split('_').map((word) => word.charAt(0).toUpperCase() + word.slice(1)).join('');

const rules = siteChecks.map((check) => ({
  id: check.id,
  name: ruleName(check.id),
  shortDescription: { text: check.title },
  fullDescription: { text: check.description },
  help: { text: check.howToFix },
  defaultConfiguration: { level: LEVELS[check.importance] },
  properties: { category: check.category, importance: check.importance },
}));
const ruleIndex = new Map(rules.map((rule, index) => [rule.id, index]));

const levelOf = (importance: string) => LEVELS[importance as Importance] ?? 'note';

export function renderCrawlSarif({ crawl, issues }: CrawlOutcome): string {
  const results = crawl.state !== 'done' ? [] : issues.flatMap((issue) =>
    issue.items.map((item) => {
      const uri = itemLocation(item) ?? crawl.url;
      const index = ruleIndex.get(issue.id);
      return {
        ruleId: issue.id,
        ...(index === undefined ? {} : { ruleIndex: index }),
        level: levelOf(issue.importance),
        message: { text: `${SITE_CHECKS.get(issue.id)?.failureTitle ?? issue.id}: ${itemText(item)}.` },
        locations: [{ physicalLocation: { artifactLocation: { uri } } }],
        // The same alert across crawls: this check's finding with the same key.
        partialFingerprints: { 'pagegradeSiteCheck/v1': `${issue.id} ${itemKey(item) || uri}` },
        properties: { importance: issue.importance, crawl_url: crawl.url },
      };
    }),
  );
  const failed = crawl.state !== 'done';
  const log = {
    $schema: SCHEMA,
    version: '2.1.0',
    runs: [
      {
        tool: { driver: { name: 'pagegrade', version: pagegradeVersion(), semanticVersion: pagegradeVersion(), rules } },
        invocations: [
          {
            executionSuccessful: !failed,
            toolExecutionNotifications: failed ? [{ level: 'error', message: { text: `The crawl of ${crawl.url} failed: ${crawl.error ?? crawl.state}` } }] : [],
          },
        ],
        results,
        properties: { url: crawl.url, score: crawl.score, verdict: crawl.result, pages_crawled: crawl.pages_crawled, limit_reached: crawl.limit_reached },
      },
    ],
  };
  return `${JSON.stringify(log, null, 2)}\n`;
}
