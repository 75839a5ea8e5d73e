// Request and response schemas of /api/v1/projects (docs/api.md, "Projects").
import { Type, type Static } from '@sinclair/typebox';
import { ListEnvelope, ListFormatQuery, PaginationQuery, Timestamp, oneOf } from './common.ts';

const PROJECT_SORT_KEYS = ['created_at', 'project'] as const;

export const ProjectListQuery = Type.Object({
  ...PaginationQuery,
  search_by: Type.Optional(oneOf(['project'] as const, { description: 'Field searched.', default: 'project' })),
  sort_by: Type.Optional(
    oneOf(PROJECT_SORT_KEYS, { description: 'Names sort in code-point order.', default: 'created_at' }),
  ),
});

/** GET /api/v1/projects: the list's parameters and the format of the answer. */
export const ProjectListApiQuery = Type.Object({ ...ProjectListQuery.properties, ...ListFormatQuery });

export const ProjectParams = Type.Object({ project: Type.String({ description: 'The project name, URL-encoded.' }) });

const Project = Type.Object(
  {
    project: Type.String(),
    reports_count: Type.Integer(),
    result_counts: Type.Object({ good: Type.Integer(), decent: Type.Integer(), bad: Type.Integer() }),
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { $id: 'Project' },
);

export const ProjectListResponse = ListEnvelope(Project, { title: 'ProjectList', description: 'A page of the caller\'s projects.' });
export const ProjectDeletedResponse = Type.Object(
  {
    project: Type.String(),
    object: Type.Literal('project'),
    deleted: Type.Literal(true),
    reports_deleted: Type.Integer(),
    status: Type.Literal(200),
  },
  { title: 'ProjectDeleted', description: 'The project and its reports are gone.' },
);
