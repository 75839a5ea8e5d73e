// The lab benchmark's targets (issue: time a page at most a third of Lighthouse's, LCP within 20% and
// CLS within 0.05 on the median page, the same failing axe rules on at least 95% of (page, rule)
// pairs), its section of the output, and bench/results/lab.json.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { LabBenchResult } from './lab.ts';
import type { ScaleTarget } from './crawl-scale-report.ts';

export function labTargets(result: LabBenchResult): ScaleTarget[] {
  const within = (value: number | null, limit: number) => value !== null && value <= limit;
  return [
    { name: 'time_ratio (pagegrade median ms a page / Lighthouse\'s)', value: result.time_ratio, target: '<= 0.333', met: result.time_ratio <= 1 / 3 },
    { name: 'lcp_relative_diff_median', value: result.lcp_relative_diff_median, target: '<= 0.2', met: within(result.lcp_relative_diff_median, 0.2) },
    { name: 'cls_diff_median', value: result.cls_diff_median, target: '<= 0.05', met: within(result.cls_diff_median, 0.05) },
    { name: `rule_agreement (of ${result.rule_pairs} (page, rule) pairs)`, value: result.rule_agreement, target: '>= 0.95', met: result.rule_agreement !== null && result.rule_agreement >= 0.95 },
  ];
}

export function labSection(result: LabBenchResult, targets: ScaleTarget[]): string {
  const shown = (side: LabBenchResult['per_page'][number]['pagegrade']) =>
    'failed' in side ? `failed: ${side.failed.slice(0, 60)}` : `${side.lcp_ms === null ? '-' : Math.round(side.lcp_ms)} / ${side.cls === null ? '-' : round3(side.cls)} / ${side.failing.length}`;
  return [
    `### Lab audits beside Lighthouse ${result.lighthouse_version} (mobile, devtools throttling), ${result.pages} pages`,
    '',
    '| page | pagegrade ms | Lighthouse ms | pagegrade LCP / CLS / failing rules | Lighthouse LCP / CLS / failing rules | rules compared | disagreements |',
    '| --- | --- | --- | --- | --- | --- | --- |',
    ...result.per_page.map((page) => `| ${new URL(page.url).pathname.slice(0, 50)} | ${page.pagegrade_ms} | ${page.lighthouse_ms} | ${shown(page.pagegrade)} | ${shown(page.lighthouse)} | ${page.rules_compared} | ${page.disagreements.join(', ')} |`),
    '',
    `Median a page: pagegrade ${result.pagegrade_ms_median} ms, Lighthouse ${result.lighthouse_ms_median} ms.`,
    'Targets:',
    ...targets.map((each) => `- ${each.met ? 'met' : 'MISSED'}: ${each.name} = ${each.value} (target ${each.target})`),
  ].join('\n');
}

const round3 = (value: number) => Math.round(value * 1000) / 1000;

export function writeLabResult(result: LabBenchResult, targets: ScaleTarget[], directory: string, context: object): string {
  mkdirSync(directory, { recursive: true });
  const file = join(directory, 'lab.json');
  writeFileSync(file, `${JSON.stringify({ ...context, lab: result, targets }, null, 2)}\n`);
  return file;
}
