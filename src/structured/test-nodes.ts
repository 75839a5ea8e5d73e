// For tests only: structured-data items written as small specs and laid out the way a pretty-printed
// JSON-LD block would be (one property a line, a nested object opening on its property's line), so a
// test states the data and, where it is about lines, the lines.
import { jsonLdTerm } from './term-names.ts';
import type { RichResultEntry, RichResultFinding, StructuredExtraction, StructuredFormat, StructuredNode, StructuredValue } from './structured-types.ts';
import { judgeRichResults } from './rich-results.ts';
import { schemaOrg } from './vocabulary.ts';

type Scalar = string | number | boolean | null;

export interface NodeSpec {
  spec: 'node';
  types: string[];
  properties: [string, SpecValue[]][];
  id: string | null;
  reference: boolean;
  line?: number;
  format: StructuredFormat;
}

/** A value on a line of its own choosing. */
interface LinedSpec {
  spec: 'lined';
  line: number;
  value: Scalar | NodeSpec;
}

type SpecValue = Scalar | NodeSpec | LinedSpec;

interface NodeOptions {
  id?: string;
  line?: number;
  format?: StructuredFormat;
}

/** A node: `types` '' or [] for an untyped one; an array property value gives one value each. */
export function node(types: string | string[], properties: Record<string, SpecValue | SpecValue[]> = {}, options: NodeOptions = {}): NodeSpec {
  return {
    spec: 'node',
    types: typeof types === 'string' ? (types === '' ? [] : [types]) : types,
    properties: Object.entries(properties).map(([name, value]) => [name, Array.isArray(value) ? value : [value]]),
    id: options.id ?? null,
    reference: false,
    line: options.line,
    format: options.format ?? 'json-ld',
  };
}

/** `{"@id": id}`, standing for the page's node with that `@id`. */
export function ref(id: string): NodeSpec {
  return { spec: 'node', types: [], properties: [], id, reference: true, format: 'json-ld' };
}

export function at(line: number, value: Scalar | NodeSpec): LinedSpec {
  return { spec: 'lined', line, value };
}

/** The spec without the property at `path` (on every node the path reaches). */
export function omit(spec: NodeSpec, path: string): NodeSpec {
  const [name, ...rest] = path.split('.');
  const properties = spec.properties.flatMap(([key, values]): [string, SpecValue[]][] => {
    if (key !== name) return [[key, values]];
    if (rest.length === 0) return [];
    return [[key, values.map((value) => mapNode(value, (child) => omit(child, rest.join('.'))))]];
  });
  return { ...spec, properties };
}

/** The spec with the property at `path` set to `value` (replacing its values, or added last). */
export function withValue(spec: NodeSpec, path: string, value: SpecValue | SpecValue[]): NodeSpec {
  const [name, ...rest] = path.split('.');
  const values = Array.isArray(value) ? value : [value];
  const exists = spec.properties.some(([key]) => key === name);
  if (rest.length === 0) {
    const properties: [string, SpecValue[]][] = exists
      ? spec.properties.map(([key, old]) => [key, key === name ? values : old])
      : [...spec.properties, [name, values]];
    return { ...spec, properties };
  }
  if (!exists) throw new Error(`withValue: ${spec.types.join(' ')} has no ${name}`);
  return {
    ...spec,
    properties: spec.properties.map(([key, old]) => [key, key === name ? old.map((child) => mapNode(child, (inner) => withValue(inner, rest.join('.'), value))) : old]),
  };
}

function mapNode(value: SpecValue, change: (node: NodeSpec) => NodeSpec): SpecValue {
  if (value !== null && typeof value === 'object') {
    if (value.spec === 'node') return change(value);
    if (value.value !== null && typeof value.value === 'object') return { ...value, value: change(value.value) };
  }
  return value;
}

/** The items laid out from line 1 on (or from their own `line`), with `byId` as the parse step builds it. */
export function extraction(...items: NodeSpec[]): StructuredExtraction {
  let next = 1;
  const byId = new Map<string, StructuredNode>();

  const build = (spec: NodeSpec, line: number): StructuredNode => {
    next = Math.max(next, line + 1);
    const built: StructuredNode = {
      format: spec.format,
      types: spec.types.map((type) => jsonLdTerm(type, true)),
      id: spec.id,
      reference: spec.reference,
      line,
      properties: [],
    };
    for (const [name, values] of spec.properties) {
      const keyLine = next++;
      built.properties.push({
        name: jsonLdTerm(name, true),
        values: values.map((value, index) => buildValue(value, keyLine, values.length === 1 && index === 0)),
      });
    }
    if (spec.id !== null && !spec.reference && !byId.has(spec.id)) byId.set(spec.id, built);
    return built;
  };

  const buildValue = (value: SpecValue, keyLine: number, onKeyLine: boolean): StructuredValue => {
    if (value !== null && typeof value === 'object' && value.spec === 'lined') {
      if (value.value !== null && typeof value.value === 'object') return { kind: 'node', node: build(value.value, value.line), line: keyLine };
      return { ...scalar(value.value), line: value.line };
    }
    if (value !== null && typeof value === 'object') {
      const line = value.line ?? (onKeyLine ? keyLine : next++);
      return { kind: 'node', node: build(value, line), line: keyLine };
    }
    return { ...scalar(value), line: keyLine };
  };

  const built = items.map((spec) => build(spec, spec.line ?? next));
  const formats = (['json-ld', 'microdata', 'rdfa'] as const).filter((format) => built.some((item) => item.format === format));
  return { present: items.length > 0, formats, items: built, problems: [], byId };
}

type ScalarValue = { kind: 'text'; text: string } | { kind: 'number'; number: number; written: string } | { kind: 'boolean'; boolean: boolean } | { kind: 'null' };

function scalar(value: Scalar): ScalarValue {
  if (value === null) return { kind: 'null' };
  if (typeof value === 'string') return { kind: 'text', text: value };
  if (typeof value === 'number') return { kind: 'number', number: value, written: String(value) };
  return { kind: 'boolean', boolean: value };
}

// ---- Judging specs against the shipped vocabulary, as the feature tests read the entries ----------

const TEST_PAGE = 'https://example.com/page';

/** The entries of items built from specs. */
export const judge = (...items: NodeSpec[]) => judgeRichResults(extraction(...items), schemaOrg, TEST_PAGE);

/** The spec's entry for `feature` (it must have one). */
export function entryOf(spec: NodeSpec, feature: string): RichResultEntry {
  const entry = judge(spec).find((candidate) => candidate.feature === feature);
  if (!entry) throw new Error(`no ${feature} entry`);
  return entry;
}

export const short = ({ kind, property, message }: RichResultFinding) => ({ kind, property, message });
export const errorsOf = (spec: NodeSpec, feature: string) => entryOf(spec, feature).errors.map(short);
export const warningsOf = (spec: NodeSpec, feature: string) => entryOf(spec, feature).warnings.map(short);
export const missing = (property: string, message: string) => ({ kind: 'missing_property', property, message });
export const invalid = (property: string, message: string) => ({ kind: 'invalid_value', property, message });
export const typed = (spec: NodeSpec, types: string[]) => ({ ...spec, types });
