// What a property's rangeIncludes asks of its values (docs/structured-data.md, the eight value rules of
// the schema.org validation). Built once per property and page; only these rules make a value wrong,
// since schema.org allows text where an entity is expected.
import type { StructuredExtraction, StructuredNode, StructuredValue, Vocabulary } from './structured-types.ts';
import { isBooleanValue, isIsoDate, isIsoDuration, isNumber, isPresentValue, isUrlText, isWholeNumber } from './value-rules.ts';

export interface RangeRule {
  /** The class ranges (not data types): the types an untyped node held by the property takes. */
  classes: readonly string[];
  /** The `expected` phrase when the value breaks a rule, else null (also for null, a blank string or `{}`). */
  judge(value: StructuredValue): string | null;
}

type ScalarValue = Exclude<StructuredValue, { kind: 'null' } | { kind: 'node' }>;
interface ScalarRule {
  expected: string;
  accepts(value: ScalarValue): boolean;
}

const DATE_TYPES = ['Date', 'DateTime', 'Time'];
const SCHEMA_IRI = /^(?:https?:\/\/schema\.org\/|schema:)/;
const DATA_VALUE = 'a data value, not an object';

/** "A", "A or B", "A, B or C". */
function alternatives(names: readonly string[]): string {
  return names.length <= 1 ? names.join('') : `${names.slice(0, -1).join(', ')} or ${names.at(-1)}`;
}

export function rangeRule(property: string, vocabulary: Vocabulary, extraction: StructuredExtraction, pageUrl: string): RangeRule {
  const ranges = vocabulary.ranges(property);
  const classes = ranges.filter((range) => !vocabulary.isDataType(range));
  const scalar = scalarRule(ranges, vocabulary, pageUrl);
  const node = nodeRule(ranges, classes, vocabulary, extraction);
  return {
    classes,
    judge(value) {
      // A value that is not there is of no kind; rich_results reports a required one as missing.
      if (value.kind === 'null' || !isPresentValue(value)) return null;
      if (value.kind === 'node') return node(value.node);
      return scalar === null || scalar.accepts(value) ? null : scalar.expected;
    },
  };
}

/** Rules 1 to 6, for strings, numbers, booleans and JSON-LD value objects; null when any is right. */
function scalarRule(ranges: readonly string[], vocabulary: Vocabulary, pageUrl: string): ScalarRule | null {
  if (ranges.length === 0) return null;
  // Text and its text subtypes (PronounceableText, CssSelectorType, ...) take any string, number or boolean; URL is rule 5's.
  if (ranges.some((range) => range !== 'URL' && vocabulary.isSubclassOf(range, 'Text'))) return null;
  const only = (test: (range: string) => boolean) => ranges.every(test);
  if (only((range) => DATE_TYPES.includes(range))) {
    const withTime = ranges.includes('Time');
    return {
      expected: `${alternatives(DATE_TYPES.filter((type) => ranges.includes(type)))} (ISO 8601)`,
      accepts: (value) => value.kind === 'text' && isIsoDate(value.text.trim(), withTime),
    };
  }
  if (only((range) => range === 'Duration')) {
    return { expected: 'Duration (ISO 8601)', accepts: (value) => value.kind === 'text' && isIsoDuration(value.text.trim()) };
  }
  if (only((range) => vocabulary.isSubclassOf(range, 'Number'))) {
    return only((range) => range === 'Integer') ? { expected: 'Integer', accepts: (value) => isWholeNumber(value) } : { expected: 'Number', accepts: isNumber };
  }
  if (only((range) => range === 'Boolean')) return { expected: 'Boolean', accepts: isBooleanValue };
  if (only((range) => vocabulary.isEnumeration(range))) {
    return { expected: memberOf(ranges), accepts: (value) => value.kind === 'text' && namesMember(value.text, ranges, vocabulary) };
  }
  if (ranges.includes('URL')) return { expected: 'URL', accepts: (value) => value.kind === 'text' && isUrlText(value.text, pageUrl) };
  return null;
}

/** Rules 6 to 8, for a node value; the phrase when it is wrong, else null. */
function nodeRule(
  ranges: readonly string[],
  classes: readonly string[],
  vocabulary: Vocabulary,
  extraction: StructuredExtraction,
): (node: StructuredNode) => string | null {
  if (ranges.length === 0) return () => null;
  if (classes.length === 0) return () => DATA_VALUE;
  if (ranges.every((range) => vocabulary.isEnumeration(range))) {
    const expected = memberOf(ranges);
    return (node) => (node.id !== null && namesMember(node.id, ranges, vocabulary) ? null : expected);
  }
  const expected = alternatives(classes);
  return (node) => {
    const resolved = node.reference && node.id !== null ? (extraction.byId.get(node.id) ?? node) : node;
    const types = resolved.types.flatMap((type) => (type.schema === null ? [] : [type.schema]));
    // An object without a schema.org type takes the range's type; an unknown type is unknown_type's to report.
    if (types.length === 0 || !types.every((type) => vocabulary.isClass(type))) return null;
    // schema.org lets a Role (an author's, a performer's) stand between an entity and its value.
    if (types.some((type) => vocabulary.isSubclassOf(type, 'Role'))) return null;
    return types.some((type) => classes.some((range) => vocabulary.isSubclassOf(type, range))) ? null : expected;
  };
}

function memberOf(enumerations: readonly string[]): string {
  return `a member of ${alternatives(enumerations)}`;
}

/** "InStock", "https://schema.org/InStock", "http://schema.org/InStock" or "schema:InStock", a member of one of them. */
function namesMember(text: string, enumerations: readonly string[], vocabulary: Vocabulary): boolean {
  const member = text.trim().replace(SCHEMA_IRI, '');
  return member !== '' && enumerations.some((enumeration) => vocabulary.isMemberOf(member, enumeration));
}
