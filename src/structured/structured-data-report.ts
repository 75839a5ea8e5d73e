// The report's `structured_data` field (docs/structured-data.md, "The report field"): a page's
// judgement, capped for storage and display; the counts count everything.
import type { RichResultFinding, StructuredDataReport, StructuredJudgement, StructuredNode } from './structured-types.ts';

/** Items and rich-result entries listed; errors and warnings listed per entry. */
export const MAX_LISTED_ITEMS = 200;
export const MAX_LISTED_ENTRIES = 200;
export const MAX_LISTED_FINDINGS = 50;

/** An item's types as the report shows them: schema.org's without their namespace, others as written. */
export function itemType(node: StructuredNode): string {
  return node.types.map((type) => type.schema ?? type.written).join(' ');
}

/** Null when the page has no structured data. */
export function structuredDataReport(judgement: StructuredJudgement, schemaOrgVersion: string): StructuredDataReport | null {
  const { extraction, validation, richResults } = judgement;
  if (!extraction.present) return null;
  let errors = 0;
  let warnings = 0;
  for (const entry of richResults) {
    errors += entry.errors.length;
    warnings += entry.warnings.length;
  }
  return {
    schema_org_version: schemaOrgVersion,
    items: extraction.items.slice(0, MAX_LISTED_ITEMS).map((node) => ({ format: node.format, type: itemType(node), line: node.line })),
    rich_results: richResults.slice(0, MAX_LISTED_ENTRIES).map((entry) => ({
      feature: entry.feature,
      type: entry.type,
      line: entry.line,
      valid: entry.valid,
      retired: entry.retired,
      errors: entry.errors.slice(0, MAX_LISTED_FINDINGS).map(shownFinding),
      warnings: entry.warnings.slice(0, MAX_LISTED_FINDINGS).map(shownFinding),
    })),
    errors,
    warnings,
    validation_errors: validation.length,
  };
}

function shownFinding({ property, message, line, value }: RichResultFinding): StructuredDataReport['rich_results'][number]['errors'][number] {
  return value === undefined ? { property, message, line } : { property, message, value, line };
}
