// `--output x.junit.xml`: JUnit XML for CI test reports. One <testsuite> per URL, one <testcase> per
// check that applied (passed or failed), and a <failure> with the offending items for each failed one.
// A URL that could not be analysed is a suite with one <testcase name="analysis"> in <error>.
import type { Analysis, CheckResult } from '../../analysis/types.ts';
import { checksById } from '../../checks/index.ts';
import { describeItem, titleOf } from '../report-text.ts';
import { FINDING_CHECKS, findingLine, findingsOf } from '../structured-findings.ts';
import type { UrlOutcome } from '../url-outcome.ts';
import { escapeXml } from './xml.ts';

const text = (value: string) => escapeXml(value, 'text');
const attribute = (value: string) => escapeXml(value, 'attribute');

/**
 * The failure's body: every offending item (a check lists at most 25 of a kind, the structured-data
 * checks 50, each a sentence with its line), then the fix.
 */
function failureText(id: string, result: CheckResult): string {
  const lines: string[] = [];
  for (const [kind, items] of Object.entries(result.errors ?? {})) {
    const described = FINDING_CHECKS.has(id) ? findingsOf(id, { [kind]: items }).map(findingLine) : items.map(describeItem);
    lines.push(`${kind.replaceAll('_', ' ')}:`, ...described.map((item) => `  - ${item}`));
  }
  const fix = checksById.get(id)?.howToFix;
  if (fix) lines.push(`Fix: ${fix}`);
  return lines.join('\n');
}

function testCase(url: string, id: string, result: CheckResult): string {
  const name = attribute(`${id}: ${titleOf(id, true)}`);
  const open = `    <testcase classname="${attribute(url)}" name="${name}"`;
  if (result.passed) return `${open}/>`;
  const failure = `<failure message="${attribute(titleOf(id, false))}" type="${result.importance}">${text(failureText(id, result))}</failure>`;
  return `${open}>\n      ${failure}\n    </testcase>`;
}

function analyzedSuite(analysis: Analysis): string {
  const applicable = Object.entries(analysis.results).filter(([, result]) => result.passed !== null);
  const failures = applicable.filter(([, result]) => result.passed === false).length;
  const properties = [
    ['score', String(analysis.score)],
    ['result', analysis.result],
    ['final_url', analysis.page.final_url],
    ['status_code', String(analysis.page.status_code)],
  ].map(([name, value]) => `      <property name="${name}" value="${attribute(value)}"/>`);
  return [
    `  <testsuite name="${attribute(analysis.url)}" tests="${applicable.length}" failures="${failures}" errors="0" skipped="0" ` +
      `timestamp="${analysis.generatedAt.toISOString()}">`,
    `    <properties>\n${properties.join('\n')}\n    </properties>`,
    ...applicable.map(([id, result]) => testCase(analysis.url, id, result)),
    '  </testsuite>',
  ].join('\n');
}

function notAnalyzedSuite(url: string, error: string): string {
  return [
    `  <testsuite name="${attribute(url)}" tests="1" failures="0" errors="1" skipped="0">`,
    `    <testcase classname="${attribute(url)}" name="analysis">`,
    `      <error message="${attribute(`could not be analysed: ${error}`)}" type="not-analysed"/>`,
    '    </testcase>',
    '  </testsuite>',
  ].join('\n');
}

export function renderJunit(outcomes: readonly UrlOutcome[]): string {
  const suites = outcomes.map((outcome) => ('error' in outcome ? notAnalyzedSuite(outcome.url, outcome.error) : analyzedSuite(outcome.analysis)));
  const results = outcomes.flatMap((outcome) => ('analysis' in outcome ? Object.values(outcome.analysis.results) : []));
  const tests = results.filter((result) => result.passed !== null).length;
  const failures = results.filter((result) => result.passed === false).length;
  const errors = outcomes.filter((outcome) => 'error' in outcome).length;
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="pagegrade" tests="${tests + errors}" failures="${failures}" errors="${errors}">`,
    ...suites,
    '</testsuites>',
    '',
  ].join('\n');
}
