// Holds every result of an analysis to its check's value schema (CheckDefinition.value), the schema the
// OpenAPI document gives clients: a property the schema does not name, or a wrong type, is a mismatch.
import { Value } from '@sinclair/typebox/value';
import { checksById } from '../../src/checks/index.ts';
import type { Analysis } from '../../src/analysis/types.ts';

/** One line per result whose value does not match its schema ([] when all match). */
export function valueSchemaMismatches(analysis: Pick<Analysis, 'results'>, label = ''): string[] {
  const mismatches: string[] = [];
  for (const [id, result] of Object.entries(analysis.results)) {
    const check = checksById.get(id);
    if (!check) {
      mismatches.push(`${label}${id}: no such check`);
      continue;
    }
    // A check that does not apply may carry no value at all.
    if (result.value === null && result.passed === null) continue;
    const first = Value.Errors(check.value, result.value).First();
    if (first) mismatches.push(`${label}${id}: ${first.path || '/'} ${first.message} (${JSON.stringify(first.value)?.slice(0, 80)})`);
  }
  return mismatches;
}
