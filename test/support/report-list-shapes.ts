// The report list shapes the query-plan tests walk on each database: filter sets that take each kind of
// index (none, project, result, both, a url search alone and with both), and every sort key.
import type { ReportFilters, ReportSortBy } from '../../src/repositories/report.repository.ts';

export const REPORT_FILTERS: ReportFilters[] = [
  {},
  { project: 'a.com' },
  { result: 'good' },
  { project: 'a.com', result: 'bad' },
  { search: 'pricing' },
  { search: 'pricing', project: 'a.com', result: 'decent' },
];

export const REPORT_SORTS: ReportSortBy[] = ['id', 'generated_at', 'url', 'result'];
