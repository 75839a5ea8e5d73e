// `crawl --output x.junit.xml`: JUnit XML for CI test reports. One <testsuite> for the crawl; one
// <testcase> per site check of the catalogue (GET /api/v1/checks, category site), named by its id: a
// <failure> naming each finding kept (its URL first) for a check that found something, <skipped/> for
// one that does not apply to this crawl (broken_external_links with --no-external). A crawl that failed
// is a suite with one <testcase name="crawl"> in <error>.
import { siteChecks } from '../../crawl/site-checks/index.ts';
import type { CrawlIssue } from '../../services/crawl-view.ts';
import type { CrawlOutcome } from '../crawl-text.ts';
import { SITE_CHECKS, itemLocation, itemText, notApplying } from './crawl-items.ts';
import { escapeXml } from './xml.ts';

const text = (value: string) => escapeXml(value, 'text');
const attribute = (value: string) => escapeXml(value, 'attribute');

/** The failure's body: each finding kept, at its URL, then how many were not kept, then the fix. */
function failureText(issue: CrawlIssue): string {
  const lines = issue.items.map((item) => {
    const location = itemLocation(item);
    return `- ${location === null ? '' : `${location}: `}${itemText(item)}`;
  });
  if (issue.count > issue.items.length) lines.push(`... and ${issue.count - issue.items.length} more findings (the first ${issue.items.length} are kept)`);
  const fix = SITE_CHECKS.get(issue.id)?.howToFix;
  if (fix) lines.push(`Fix: ${fix}`);
  return lines.join('\n');
}

export function renderCrawlJunit({ crawl, issues }: CrawlOutcome): string {
  const open = (id: string) => `    <testcase classname="${attribute(crawl.url)}" name="${attribute(id)}"`;
  const head = (tests: number, failures: number, errors: number) => `name="${attribute(crawl.url)}" tests="${tests}" failures="${failures}" errors="${errors}"`;
  if (crawl.state !== 'done') {
    return [
      '<?xml version="1.0" encoding="UTF-8"?>',
      `<testsuites ${head(1, 0, 1)}>`,
      `  <testsuite ${head(1, 0, 1)} skipped="0">`,
      `${open('crawl')}>`,
      `      <error message="${attribute(`the crawl failed: ${crawl.error ?? crawl.state}`)}" type="crawl-failed"/>`,
      '    </testcase>',
      '  </testsuite>',
      '</testsuites>',
      '',
    ].join('\n');
  }
  const byId = new Map(issues.map((issue) => [issue.id, issue]));
  // The catalogue's checks, then (should a stored crawl hold one no longer listed) any other issue.
  const ids = [...siteChecks.map((check) => check.id), ...issues.map((issue) => issue.id).filter((id) => !SITE_CHECKS.has(id))];
  let failures = 0;
  let skipped = 0;
  const cases = ids.map((id) => {
    const why = notApplying(id, crawl);
    if (why !== null) {
      skipped++;
      // The common JUnit schema gives <skipped> no attribute: why is said in <system-out>.
      return `${open(id)}>\n      <skipped/>\n      <system-out>${text(`does not apply: ${why}`)}</system-out>\n    </testcase>`;
    }
    const issue = byId.get(id);
    if (issue === undefined || issue.count === 0) return `${open(id)}/>`;
    failures++;
    const title = SITE_CHECKS.get(id)?.failureTitle ?? id;
    const message = `${title} (${issue.count} finding${issue.count === 1 ? '' : 's'})`;
    return `${open(id)}>\n      <failure message="${attribute(message)}" type="${attribute(issue.importance)}">${text(failureText(issue))}</failure>\n    </testcase>`;
  });
  const properties = [
    ['score', String(crawl.score ?? '')],
    ['result', crawl.result ?? ''],
    ['pages_crawled', String(crawl.pages_crawled)],
    ['pages_found', String(crawl.pages_found)],
    ['limit_reached', String(crawl.limit_reached)],
  ].map(([name, value]) => `      <property name="${name}" value="${attribute(value)}"/>`);
  const timestamp = crawl.finished_at === null ? '' : ` timestamp="${attribute(crawl.finished_at)}"`;
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites ${head(ids.length, failures, 0)}>`,
    `  <testsuite ${head(ids.length, failures, 0)} skipped="${skipped}"${timestamp}>`,
    `    <properties>\n${properties.join('\n')}\n    </properties>`,
    ...cases,
    '  </testsuite>',
    '</testsuites>',
    '',
  ].join('\n');
}
