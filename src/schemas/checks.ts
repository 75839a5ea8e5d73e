// Response schema of GET /api/v1/checks (docs/api.md, "Checks"): what each check of a report
// means and how to fix it, so a client reading `results` can explain them.
import { Type } from '@sinclair/typebox';
import { oneOf } from './common.ts';

export const CheckDescription = Type.Object(
  {
    id: Type.String({ description: 'The key of this check in a report\'s `results`, or of a site check in a crawl\'s issues.' }),
    category: oneOf(['seo', 'performance', 'security', 'miscellaneous', 'accessibility', 'site'] as const, {
      description: '`site` for the site checks of a crawl.',
    }),
    importance: oneOf(['high', 'medium', 'low'] as const),
    points: Type.Integer({ description: 'What the check weighs in the score: high 10, medium 5, low 2.' }),
    title: Type.String({ description: 'Shown when the check passes.' }),
    failure_title: Type.String({ description: 'Shown when it fails.' }),
    description: Type.String({ description: 'Why it matters.' }),
    how_to_fix: Type.String({ description: 'What to do when it fails.' }),
    schema_org_version: Type.Optional(
      Type.String({ description: 'structured_data_valid and rich_results: the schema.org release items are validated against.' }),
    ),
    features: Type.Optional(
      Type.Array(
        Type.Object({
          feature: Type.String(),
          types: Type.Array(Type.String()),
          subtypes: Type.Boolean({ description: 'Subtypes of the types (by the vocabulary\'s subClassOf) match too.' }),
          retired: Type.Union([Type.String(), Type.Null()], { description: 'The date Google retired the feature; null for a current one.' }),
          source: Type.String({ description: 'Google\'s page the requirements were read from.' }),
          read: Type.String({ description: 'The date they were read.' }),
        }),
        { description: 'rich_results: every Google rich-result feature it judges, current and retired.' },
      ),
    ),
  },
  { $id: 'CheckDescription', additionalProperties: false },
);

export const CheckListResponse = Type.Object(
  { data: Type.Array(Type.Ref(CheckDescription)), status: Type.Literal(200) },
  {
    $id: 'CheckList',
    additionalProperties: false,
    description: 'Every check, in the order reports list them, then every site check, in the order crawls list them.',
  },
);
