// The schema of a report's `results`, built from the check registry: for each check, its result with
// the importance and category it always has and the schema of its `value` (CheckDefinition.value), so
// the OpenAPI document tells a client exactly what every check measured. Named `Result.<check id>`.
import { Type, type TSchema } from '@sinclair/typebox';
import type { CheckDefinition } from '../checks/check.ts';
import { allChecks } from '../checks/index.ts';
import { WEIGHTS } from '../scoring/score.ts';

const Errors = Type.Union(
  [
    Type.Record(Type.String(), Type.Array(Type.Unknown()), {
      description: 'The offending items by kind of problem (at most 25 a kind); element items carry their `line` and a `snippet` of the tag.',
    }),
    Type.Null(),
  ],
  { description: 'null unless the check failed.' },
);

function resultSchema(check: CheckDefinition): TSchema {
  return Type.Object(
    {
      passed: Type.Union([Type.Boolean(), Type.Null()], { description: 'null: the check does not apply or could not be made (see reason).' }),
      importance: Type.Literal(check.importance),
      category: Type.Literal(check.category),
      value: Type.Union([check.value, Type.Null()], { description: 'What was measured; null only when the check does not apply.' }),
      errors: Errors,
      reason: Type.Optional(Type.String({ description: 'Why the check does not apply; only when passed is null.' })),
    },
    {
      $id: `Result.${check.id}`,
      description: `${check.title} (${check.importance}, weight ${WEIGHTS[check.importance]}). Fails: ${check.failureTitle}. GET /api/v1/checks explains it.`,
    },
  );
}

export const ReportResults = Type.Object(Object.fromEntries(allChecks.map((check) => [check.id, Type.Optional(resultSchema(check))])), {
  $id: 'ReportResults',
  description: 'One result per check, keyed by check id. Reports made by an older version may lack checks added since.',
});
