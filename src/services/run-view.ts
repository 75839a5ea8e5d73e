// Maps stored runs to the API's run objects.
import type { CheckResult, PageFacts } from '../analysis/types.ts';
import { unpackResults } from '../analysis/packed-results.ts';
import type { ReportRunRow } from '../db/tables/report-run.table.ts';
import type { RunListRow } from '../repositories/report-run.repository.ts';
import type { Run, RunSummary } from './types.ts';
import type { Rendered } from '../render/compare-rendered.ts';
import type { Lab } from '../lab/lab-types.ts';
import type { StructuredDataReport } from '../structured/structured-types.ts';

export function toRunSummary(row: RunListRow): RunSummary {
  return {
    id: row.id,
    number: row.number,
    score: row.score,
    result: row.result,
    issues: { high: row.issues_high, medium: row.issues_medium, low: row.issues_low },
    trigger: row.trigger,
    generated_at: row.generated_at,
  };
}

export function toRun(row: ReportRunRow): Run {
  const { generated_at, ...summary } = toRunSummary(row);
  return {
    ...summary,
    page: JSON.parse(row.page) as PageFacts,
    results: unpackResults(row.results),
    rendered: row.rendered === null ? null : (JSON.parse(row.rendered) as Rendered),
    lab: row.lab === null ? null : (JSON.parse(row.lab) as Lab),
    structured_data: row.structured_data === null ? null : (JSON.parse(row.structured_data) as StructuredDataReport),
    generated_at,
  };
}
