// Google rich results (docs/structured-data.md, "how an item is judged"): each item, never a nested
// entity, matched by any of its types against the features' tables, one entry per matching feature,
// each required row missing or wrong an error, each recommended one a warning.
import { RICH_RESULT_FEATURES, type EntityCondition, type FeatureRow, type Level, type RichResultFeature } from './rich-result-features.ts';
import { missingMessage, missingOneOfMessage, retiredMessage } from './rich-result-messages.ts';
import { entitiesAt, itemEntity, presentValues, resolved, schemaTypes, type Entity } from './rich-result-entities.ts';
import { ValueJudge } from './rich-result-values.ts';
import { itemType } from './structured-data-report.ts';
import type { RichResultEntry, RichResultFinding, StructuredExtraction, StructuredNode, StructuredValue, Vocabulary } from './structured-types.ts';
import { writtenValue } from './value-rules.ts';

/** Where a matched item's retired-feature warning points: the item's type, or the value that made it match. */
interface Match {
  property: string;
  line: number;
}

/** Items in document order, and for each the features of the tables' order that it matches. */
export function judgeRichResults(extraction: StructuredExtraction, vocabulary: Vocabulary, pageUrl: string): RichResultEntry[] {
  const judge = new ValueJudge(extraction, vocabulary, pageUrl);
  const entries: RichResultEntry[] = [];
  for (const item of extraction.items) {
    for (const feature of RICH_RESULT_FEATURES) {
      const match = matchFeature(item, feature, judge);
      if (match === null) continue;
      entries.push(feature.retired === null ? judgeEntry(item, feature, judge) : retiredEntry(item, feature.feature, feature.retired, match));
    }
  }
  return entries;
}

function matchFeature(item: StructuredNode, feature: RichResultFeature, judge: ValueJudge): Match | null {
  const { vocabulary, extraction } = judge;
  const types = schemaTypes(item);
  const isOrIsBelow = (type: string, of: string) => type === of || vocabulary.isSubclassOf(type, of);
  const listed = types.some((type) => feature.types.some((wanted) => (feature.subtypes ? isOrIsBelow(type, wanted) : type === wanted)));
  if (!listed) return null;
  if (feature.excludes?.some((excluded) => types.some((type) => isOrIsBelow(type, excluded)))) return null;
  if (feature.needs === undefined) return { property: '@type', line: item.line };
  const { property, ofType } = feature.needs;
  const holding = presentValues(item, property).find(
    (value) => ofType === undefined || (value.kind === 'node' && schemaTypes(resolved(value.node, extraction.byId)).some((type) => isOrIsBelow(type, ofType))),
  );
  if (holding === undefined) return null;
  return ofType === undefined ? { property: '@type', line: item.line } : { property, line: holding.line };
}

function retiredEntry(item: StructuredNode, feature: string, date: string, match: Match): RichResultEntry {
  const warning: RichResultFinding = { kind: 'invalid_value', property: match.property, message: retiredMessage(feature, date), line: match.line };
  return { feature, type: itemType(item), line: item.line, valid: null, retired: date, errors: [], warnings: [warning] };
}

/** An entry's findings; a value two rows judge (license, alone and among alternatives) is reported once, as an error if either says so. */
class EntryFindings {
  readonly errors: RichResultFinding[] = [];
  readonly warnings: RichResultFinding[] = [];
  private readonly judged = new Map<StructuredValue, Set<string>>();

  add(level: Level, finding: RichResultFinding): void {
    (level === 'required' ? this.errors : this.warnings).push(finding);
  }

  addWrongValue(level: Level, value: StructuredValue, finding: RichResultFinding): void {
    const key = `${finding.property}\u0000${finding.message}`;
    const seen = this.judged.get(value) ?? new Set<string>();
    if (seen.has(key)) return;
    seen.add(key);
    this.judged.set(value, seen);
    this.add(level, finding);
  }
}

function judgeEntry(item: StructuredNode, feature: RichResultFeature, judge: ValueJudge): RichResultEntry {
  const findings = new EntryFindings();
  const types = schemaTypes(item);
  const applying = feature.rows.filter((row) => row.itemTypes === undefined || types.some((type) => row.itemTypes!.includes(type)));
  // Required rows first, so a value a recommended row judges too is already an error.
  for (const level of ['required', 'recommended'] as const) {
    for (const row of applying) if (row.level === level) judgeRow(row, item, judge, findings);
  }
  const { errors, warnings } = findings;
  return { feature: feature.feature, type: itemType(item), line: item.line, valid: errors.length === 0, retired: null, errors, warnings };
}

/** A row for each value of its parent path (the item itself for a top-level row) that the row applies to. */
function judgeRow(row: FeatureRow, item: StructuredNode, judge: ValueJudge, findings: EntryFindings): void {
  const alternatives = row.path.split('|').map((path) => path.split('.'));
  const parentPath = alternatives[0].slice(0, -1);
  const names = alternatives.map((path) => path[path.length - 1]);
  const byId = judge.extraction.byId;
  for (const parent of entitiesAt(itemEntity(item), parentPath, byId)) {
    if (row.when !== undefined && !holds(row.when, parent, judge)) continue;
    let given = false;
    for (const name of names) {
      const values = presentValues(parent.node, name);
      if (values.length > 0) given = true;
      judgeValues(row, name, [...parentPath, name].join('.'), values, judge, findings);
    }
    if (row.orElse !== undefined) {
      const orElse = row.orElse.split('.');
      const name = orElse[orElse.length - 1];
      for (const holder of entitiesAt(parent, orElse.slice(0, -1), byId)) {
        const values = presentValues(holder.node, name);
        if (values.length > 0) given = true;
        judgeValues(row, name, [...parentPath, ...orElse].join('.'), values, judge, findings);
      }
    }
    // The breadcrumb's last ListItem need not link, but a link it gives is still judged.
    if (!given && !(row.exceptLast && parent.last)) {
      const message = names.length > 1 ? missingOneOfMessage(row.level, names) : missingMessage(row.level, names[0], row.orElse);
      findings.add(row.level, { kind: 'missing_property', property: row.path, message, line: parent.line });
    }
  }
}

function judgeValues(row: FeatureRow, name: string, path: string, values: readonly StructuredValue[], judge: ValueJudge, findings: EntryFindings): void {
  for (const value of values) {
    const message = judge.problem(row, name, value);
    if (message !== null) findings.addWrongValue(row.level, value, { kind: 'invalid_value', property: path, message, value: writtenValue(value), line: value.line });
  }
}

function holds(condition: EntityCondition, entity: Entity, judge: ValueJudge): boolean {
  let holding: boolean;
  if (condition.kind === 'type') {
    const types = schemaTypes(entity.node);
    const ofType = types.some((type) => condition.types.some((wanted) => type === wanted || judge.vocabulary.isSubclassOf(type, wanted)));
    holding = ofType || (condition.orUntyped === true && types.length === 0);
  } else {
    holding = presentValues(entity.node, condition.property).some((value) => value.kind === 'text' && value.text.trim() === condition.equals);
  }
  return condition.negate ? !holding : holding;
}
