// Request and response schemas of a report's runs and their diff (docs/api.md, "Runs of a report").
import { Type } from '@sinclair/typebox';
import { ListEnvelope, ObjectEnvelope, PaginationQuery, Timestamp, oneOf } from './common.ts';
import { ReportResults } from './check-results.ts';
import { PageFacts } from './reports.ts';
import { Rendered } from './rendered.ts';
import { Lab } from './lab.ts';
import { StructuredData } from './structured-data.ts';

const VERDICTS = ['good', 'decent', 'bad'] as const;
const TRIGGERS = ['create', 'regenerate', 'schedule', 'crawl'] as const;

export const RunListQuery = Type.Object({ per_page: PaginationQuery.per_page, page: PaginationQuery.page });

export const RunParams = Type.Object({
  id: Type.String({ description: 'The report id, a positive integer.' }),
  run: Type.String({ description: 'The run id (unique across all runs), a positive integer.' }),
});

const runId = (description: string) => Type.Optional(Type.Integer({ minimum: 1, description }));
export const DiffQuery = Type.Object({
  from: runId('The older run\'s id; default: the run before `to`.'),
  to: runId('The newer run\'s id; default: the latest run.'),
});

const runFields = {
  id: Type.Integer({ description: 'Unique across all runs.' }),
  number: Type.Integer({ minimum: 1, description: 'The report\'s runs counted from 1; never reused.' }),
  score: Type.Integer({ minimum: 0, maximum: 100 }),
  result: oneOf(VERDICTS),
  issues: Type.Object({ high: Type.Integer(), medium: Type.Integer(), low: Type.Integer() }),
  trigger: oneOf(TRIGGERS, { description: 'What asked for the analysis.' }),
};

const RunSummary = Type.Object({ ...runFields, generated_at: Timestamp }, { $id: 'RunSummary' });
const Run = Type.Object({ ...runFields, page: PageFacts, results: ReportResults, rendered: Rendered, lab: Lab, structured_data: StructuredData, generated_at: Timestamp }, { $id: 'Run' });

const RunHeader = Type.Object({ id: Type.Integer(), number: Type.Integer(), score: Type.Integer(), result: oneOf(VERDICTS), generated_at: Timestamp });
const ChangedCheck = Type.Object({
  id: Type.String(),
  importance: oneOf(['high', 'medium', 'low'] as const),
  from: Type.Unknown({ description: 'The check\'s value in the older run.' }),
  to: Type.Unknown({ description: 'The check\'s value in the newer run.' }),
});
const RunDiff = Type.Object(
  {
    report_id: Type.Integer(),
    from: RunHeader,
    to: RunHeader,
    score_delta: Type.Integer(),
    result_changed: Type.Boolean(),
    newly_failed: Type.Array(ChangedCheck, { description: 'Passed or did not apply in from; fail in to.' }),
    fixed: Type.Array(ChangedCheck, { description: 'Failed in from; pass or do not apply in to.' }),
    still_failing: Type.Array(Type.String(), { description: 'Ids of the checks that fail in both.' }),
  },
  { $id: 'RunDiff' },
);

export const RunListResponse = ListEnvelope(RunSummary, { title: 'RunList', description: 'A page of the report\'s runs, newest first.' });
export const RunResponse = ObjectEnvelope(Run, 200, { title: 'RunResponse', description: 'One run with its page facts and results.' });
export const RunDiffResponse = ObjectEnvelope(RunDiff, 200, { title: 'RunDiffResponse', description: 'What changed between two runs.' });
