// GET /api/v1/crawls/{id}/diff: its query and answer (docs/crawls.md, "Comparing crawls").
import { Type } from '@sinclair/typebox';
import { ObjectEnvelope, Timestamp, oneOf } from './common.ts';

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T) => Type.Union([schema, Type.Null()]);

export const CrawlDiffQuery = Type.Object({
  from: Type.Optional(Type.Integer({
    minimum: 1,
    maximum: Number.MAX_SAFE_INTEGER,
    description: 'The crawl to compare with (a done crawl of the account); default: the account\'s latest done crawl of the same project and url created before {id}.',
  })),
});

const DiffSide = Type.Object({
  id: Type.Integer(),
  url: Type.String(),
  score: Nullable(Type.Integer()),
  result: Nullable(oneOf(['good', 'decent', 'bad'] as const)),
  issues: Type.Object({ high: Type.Integer(), medium: Type.Integer(), low: Type.Integer() }),
  pages_crawled: Type.Integer(),
  limit_reached: Type.Boolean(),
  finished_at: Nullable(Timestamp),
});

const IssueDiff = Type.Object({
  id: Type.String({ description: 'The site check.' }),
  importance: oneOf(['high', 'medium', 'low'] as const),
  new: Type.Array(Type.Unknown(), { description: 'Findings of to whose key from does not have, as to has them (at most 100).' }),
  fixed: Type.Array(Type.Unknown(), {
    description: 'Findings of from whose key to does not have, on pages both crawls visited, as from had them (at most 100).',
  }),
  persisting: Type.Integer({ description: 'Keys found by both crawls.' }),
  not_comparable: Type.Integer({
    description: 'Findings of from whose key to does not have, on a page the later crawl did not visit (or could not judge).',
  }),
});

const CrawlDiff = Type.Object(
  {
    from: DiffSide,
    to: DiffSide,
    score_delta: Nullable(Type.Integer({ description: 'to.score - from.score; null when either is null.' })),
    issues: Type.Array(IssueDiff, { description: 'One entry per site check with a finding in either crawl, by importance.' }),
    pages: Type.Object({
      added: Type.Integer({ description: 'Internal URLs visited by to and not by from.' }),
      removed: Type.Integer({ description: 'Internal URLs visited by from and not by to.' }),
      status_changed: Type.Array(
        Type.Object({ url: Type.String(), from: Nullable(Type.Integer()), to: Nullable(Type.Integer()) }),
        { description: 'URLs visited by both whose status differs (null: no answer), at most 100, by URL.' },
      ),
    }),
  },
  { $id: 'CrawlDiff' },
);

export const CrawlDiffResponse = ObjectEnvelope(CrawlDiff, 200, { title: 'CrawlDiffResponse', description: 'What changed between two crawls.' });
