// A page's structured data judged once (docs/structured-data.md): the parse step's extraction checked
// against the schema.org vocabulary and against Google's rich-result features. Both checks, the
// report's `structured_data` field and a crawl's rich-result facts read the same judgement, made on
// first use and kept only as long as the snapshot.
import type { PageSnapshot } from '../parse/page-snapshot.ts';
import type { StructuredJudgement } from './structured-types.ts';
import { validateStructuredData } from './validate.ts';
import { judgeRichResults } from './rich-results.ts';
import { schemaOrg } from './vocabulary.ts';

const judgements = new WeakMap<PageSnapshot, StructuredJudgement>();

export function judgeStructuredData(snapshot: PageSnapshot): StructuredJudgement {
  let judgement = judgements.get(snapshot);
  if (judgement === undefined) {
    const extraction = snapshot.structured;
    judgement = extraction.present
      ? {
          extraction,
          // Relative URLs resolve as a browser resolves the page's own: against its final URL, as <base> adjusts it.
          validation: validateStructuredData(extraction, schemaOrg, snapshot.baseUrl),
          richResults: judgeRichResults(extraction, schemaOrg, snapshot.baseUrl),
        }
      : { extraction, validation: [], richResults: [] };
    judgements.set(snapshot, judgement);
  }
  return judgement;
}
