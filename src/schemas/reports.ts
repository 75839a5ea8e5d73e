// Request and response schemas of /api/v1/reports (docs/api.md, "Reports").
import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { ListEnvelope, ListFormatQuery, ObjectEnvelope, PaginationQuery, Timestamp, oneOf } from './common.ts';
import { ReportResults } from './check-results.ts';
import { Rendered, render } from './rendered.ts';
import { Lab, lab, labProfile } from './lab.ts';
import { StructuredData } from './structured-data.ts';
import { REPORT_STATES } from '../db/tables/report.table.ts';

const VERDICTS = ['good', 'decent', 'bad'] as const;
const REPORT_SORT_KEYS = ['id', 'generated_at', 'url', 'result', 'score'] as const;
const PRIVACY_VALUES = [0, 1, 2] as const;

const privacy = oneOf(PRIVACY_VALUES, { description: '0 public, 1 private, 2 password.' });
const password = Type.String({
  description: 'Required when privacy is 2 (1 to 128 characters); ignored otherwise. Stored only as a salted hash.',
});

export const ReportListQuery = Type.Object({
  ...PaginationQuery,
  search_by: Type.Optional(oneOf(['url'] as const, { description: 'Field searched.', default: 'url' })),
  project: Type.Optional(Type.String({ maxLength: 300, description: 'Exact project name (the host).' })),
  result: Type.Optional(oneOf(VERDICTS, { description: 'Only reports with this verdict (never a report without a run).' })),
  state: Type.Optional(oneOf(REPORT_STATES, { description: 'Only reports whose latest analysis is in this state.' })),
  sort_by: Type.Optional(
    oneOf(REPORT_SORT_KEYS, {
      description:
        'id = date created; result ranks bad < decent < good; score: reports without a run (no score yet) come last ' +
        'in either direction.',
      default: 'id',
    }),
  ),
});

/** GET /api/v1/reports: the list's parameters and the format of the answer (the dashboard's list has no format). */
export const ReportListApiQuery = Type.Object({ ...ReportListQuery.properties, ...ListFormatQuery });

/** The list's filters and sort from its parameters, with their defaults (an empty search is none): the API's and the dashboard's. */
export function reportListFilters(q: Static<typeof ReportListQuery>) {
  return { search: q.search || undefined, project: q.project, result: q.result, state: q.state, sortBy: q.sort_by ?? 'id', sort: q.sort ?? 'desc' };
}

export const ReportIdParams = Type.Object({ id: Type.String({ description: 'The report id, a positive integer.' }) });

export const CreateReportBody = Type.Object(
  {
    url: Type.String({ maxLength: 2048, description: 'Absolute http(s) URL, at most 2048 characters, no credentials.' }),
    privacy: Type.Optional(oneOf(PRIVACY_VALUES, { description: '0 public, 1 private, 2 password.', default: 0 })),
    password: Type.Optional(password),
    async: Type.Optional(
      oneOf([0, 1] as const, { description: '1: store the report at once (202, state queued) and analyse it in the background.', default: 0 }),
    ),
    render: Type.Optional(render),
    lab: Type.Optional(lab),
    lab_profile: Type.Optional(labProfile),
    schedule: Type.Optional(
      Type.String({
        maxLength: 200,
        description: 'off (default) | daily | weekly | monthly | a 5-field cron expression in UTC, at most as often as PAGEGRADE_MIN_SCHEDULE_MINUTES.',
      }),
    ),
  },
  { title: 'CreateReport' },
);

export const UpdateReportBody = Type.Object(
  {
    privacy: Type.Optional(privacy),
    password: Type.Optional(password),
    results: Type.Optional(oneOf([0, 1] as const, { description: '1: fetch and analyse the url again.', default: 0 })),
    async: Type.Optional(
      oneOf([0, 1] as const, { description: 'With results=1: queue the analysis and answer 202 at once; the results stay until it succeeds.', default: 0 }),
    ),
    render: Type.Optional(render),
    lab: Type.Optional(lab),
    lab_profile: Type.Optional(labProfile),
    schedule: Type.Optional(
      Type.String({
        maxLength: 200,
        description: 'off (default) | daily | weekly | monthly | a 5-field cron expression in UTC, at most as often as PAGEGRADE_MIN_SCHEDULE_MINUTES.',
      }),
    ),
  },
  { title: 'UpdateReport' },
);

export const PageFacts = Type.Object({
  final_url: Type.String(),
  status_code: Type.Integer(),
  redirects: Type.Array(Type.Object({ url: Type.String(), status_code: Type.Integer() })),
  content_type: Type.Union([Type.String(), Type.Null()]),
  charset: Type.String(),
  http_version: Type.String(),
  bytes: Type.Integer(),
  load_time_ms: Type.Integer(),
});

/** A run's fields are null while a report created with async=1 has had no successful run. */
const noRunYet = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

const reportFields = {
  id: Type.Integer(),
  url: Type.String(),
  project: Type.String(),
  organization: Type.Integer({ description: 'The organisation that owns it.' }),
  privacy: oneOf(PRIVACY_VALUES),
  password: Type.Boolean({ description: 'Whether a password is set; the password itself never appears.' }),
  result: noRunYet(oneOf(VERDICTS)),
  score: noRunYet(Type.Integer({ minimum: 0, maximum: 100 })),
  issues: noRunYet(Type.Object({ high: Type.Integer(), medium: Type.Integer(), low: Type.Integer() })),
  page: noRunYet(PageFacts),
  state: oneOf(REPORT_STATES, { description: 'The latest analysis asked for; results describe the latest one that succeeded.' }),
  last_error: Type.Union([Type.Object({ message: Type.String() }), Type.Null()], { description: 'Why the latest analysis failed.' }),
  runs_count: Type.Integer({ minimum: 0, description: 'Runs kept for this report (GET /reports/{id}/runs).' }),
  schedule: Type.String({ description: 'off | daily | weekly | monthly | a 5-field cron expression (UTC).' }),
  next_run_at: Type.Union([Timestamp, Type.Null()], { description: 'When the schedule runs next; null when off.' }),
};
const timestamps = { generated_at: noRunYet(Timestamp), created_at: Timestamp, updated_at: Timestamp };

const ReportSummary = Type.Object({ ...reportFields, ...timestamps }, { $id: 'ReportSummary' });
const Report = Type.Object(
  { ...reportFields, results: noRunYet(ReportResults), rendered: Rendered, lab: Lab, structured_data: StructuredData, ...timestamps },
  { $id: 'Report' },
);

/** What a create answers: the report and whether the account already had one of its URL. */
const CreatedReport = Type.Object(
  {
    ...Report.properties,
    duplicate_of: Type.Union([Type.Integer(), Type.Null()], {
      description:
        'The id of the account\'s newest earlier report of the same URL (normalised, as lists compare them), or null when ' +
        'there is none. The new report is made either way.',
    }),
  },
  { $id: 'CreatedReport', description: 'A Report and duplicate_of, which only create answers carry.' },
);

export const ReportResponse = ObjectEnvelope(Report, 200, { title: 'ReportResponse', description: 'The report with its results.' });
export const ReportCreatedResponse = ObjectEnvelope(CreatedReport, 201, { title: 'ReportCreated', description: 'The new report with its results.' });
/** POST with async=1: the new report, stored and queued. */
export const ReportCreateQueuedResponse = ObjectEnvelope(CreatedReport, 202, {
  title: 'ReportCreateQueued',
  description: 'The new report, stored with its analysis queued (state queued, no results yet).',
});
export const ReportQueuedResponse = ObjectEnvelope(Report, 202, {
  title: 'ReportQueued',
  description: 'The report, its analysis queued (state queued); results stay those of the latest successful run.',
});
export const ReportListResponse = ListEnvelope(ReportSummary, { title: 'ReportList', description: 'A page of the caller\'s reports, without results.' });
export const ReportDeletedResponse = Type.Object(
  {
    id: Type.Integer(),
    object: Type.Literal('report'),
    deleted: Type.Literal(true),
    status: Type.Literal(200),
  },
  { title: 'ReportDeleted', description: 'The report is gone.' },
);
