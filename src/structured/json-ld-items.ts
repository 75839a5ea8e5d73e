// The items and problems of one JSON-LD block (docs/structured-data.md, "Extraction"): a top-level
// object, each element of a top-level array, each object of a `@graph` (and its container when typed)
// is an item when it has `@type` and a schema.org `@context`; the blocks and top-level nodes that give
// no item become problems. Nested objects become node values, judged with the item that holds them.
//
// Lines are not known here: every `line` holds an offset in the page until the extraction assigns
// lines once for the whole page (parse/structured-collector.ts).
import { ExtractionBudget, MAX_PROBLEMS, NodeProperties } from './extraction-limits.ts';
import { plainJson, readJson, type JsonObject, type JsonValue } from './json-reader.ts';
import type { JsonLdProblem, StructuredNode, StructuredProperty, Term } from './structured-types.ts';
import { isSchemaOrgContext, jsonLdTerm } from './term-names.ts';

/** Where a JSON-LD block is in the page. */
export interface JsonLdPlace {
  /** Offset of the `<script>` start tag's `<`. */
  tagStart: number;
  /** Offset of the block's trimmed text (JsonLdBlock.raw) in the page. */
  textStart: number;
}

/** A problem whose `line` is still an offset, and for invalid JSON where the parser stopped. */
export interface PendingProblem {
  problem: JsonLdProblem;
  /** Offset in the page of the JSON syntax error, for the message. */
  errorAt: number | null;
}

/** What the page's JSON-LD gives: items and problems in document order, nodes with an @id. */
export class JsonLdItems {
  readonly items: StructuredNode[] = [];
  readonly problems: PendingProblem[] = [];
  readonly byId = new Map<string, StructuredNode>();

  constructor(private readonly budget: ExtractionBudget) {}

  /** Reads one block: `raw` its trimmed text. */
  addBlock(raw: string, place: JsonLdPlace): void {
    const reading = readJson(raw);
    if (!reading.ok) {
      // Some CMSs wrap the block in CDATA (an XHTML habit); JSON parsers and many consumers reject it.
      const hint = /^(\/\/\s*|\/\*\s*)?<!\[CDATA\[/.test(raw) ? 'wrapped in <![CDATA[ ]]>, which is not JSON: ' : '';
      this.problem({ kind: 'invalid_json', line: place.tagStart, message: hint + reading.message }, place.textStart + reading.offset);
      return;
    }
    const top = reading.value;
    if (top.kind === 'array') {
      for (const element of top.items) this.topLevel(element, place);
    } else this.topLevel(top, place);
  }

  private topLevel(value: JsonValue, place: JsonLdPlace): void {
    if (value.kind !== 'object') {
      this.problem({ kind: 'invalid_json', line: place.tagStart, message: 'not a JSON-LD object' }, null);
      return;
    }
    const at = place.textStart;
    const context = value.entries.get('@context');
    if (context === undefined || !isSchemaOrgContext(plainJson(context.value))) {
      this.problem({ kind: 'wrong_context', line: at + value.start, context: context === undefined ? null : plainJson(context.value) }, null);
      return;
    }
    const graph = value.entries.get('@graph');
    const typed = hasType(value);
    if (graph === undefined && !typed) {
      this.problem({ kind: 'missing_type', line: at + value.start }, null);
      return;
    }
    // the container first: its `{` comes before its graph's
    if (typed) this.item(this.node(value, true, at));
    if (graph === undefined) return;
    const members = graph.value.kind === 'array' ? graph.value.items : [graph.value];
    for (const member of members) {
      if (member.kind !== 'object') continue;
      // untyped members are no items, but a reference may still point at them
      const node = this.node(member, true, at);
      if (node !== null && node.types.length > 0) this.item(node);
    }
  }

  private item(node: StructuredNode | null): void {
    if (node !== null) this.items.push(node);
  }

  private problem(problem: JsonLdProblem, errorAt: number | null): void {
    if (this.problems.length < MAX_PROBLEMS) this.problems.push({ problem, errorAt });
  }

  /** The node of an object; `schemaContext`: the nearest @context above it is schema.org's. */
  private node(object: JsonObject, schemaContext: boolean, at: number): StructuredNode | null {
    const context = object.entries.get('@context');
    if (context !== undefined) schemaContext = isSchemaOrgContext(plainJson(context.value));
    const idValue = object.entries.get('@id')?.value;
    const id = idValue?.kind === 'string' ? idValue.value : null;
    let reference = id !== null;
    for (const key of object.entries.keys()) {
      if (key !== '@id' && key !== '@context') {
        reference = false;
        break;
      }
    }
    const node = this.budget.node('json-ld', typesOf(object, schemaContext), id, reference, at + object.start);
    if (node === null) return null;
    // before its nested nodes: with a repeated @id, the first written wins
    if (id !== null && !reference && !this.byId.has(id)) this.byId.set(id, node);
    const properties = new NodeProperties(node, this.budget);
    for (const [key, entry] of object.entries) {
      if (key.startsWith('@')) continue; // keywords are not properties
      const property = properties.property(jsonLdTerm(key, schemaContext));
      if (property === null) break;
      this.addValues(properties, property, entry.value, at + entry.keyStart, schemaContext, at);
    }
    return node;
  }

  /** Adds what `value` holds to `property`: arrays, `@list` and `@set` flattened, value objects as plain values. */
  private addValues(
    properties: NodeProperties,
    property: StructuredProperty,
    value: JsonValue,
    line: number,
    schemaContext: boolean,
    at: number,
  ): void {
    switch (value.kind) {
      case 'string':
        properties.add(property, { kind: 'text', text: value.value, line });
        return;
      case 'number':
        properties.add(property, { kind: 'number', number: value.value, written: value.written, line });
        return;
      case 'boolean':
        properties.add(property, { kind: 'boolean', boolean: value.value, line });
        return;
      case 'null':
        properties.add(property, { kind: 'null', line });
        return;
      case 'array':
        for (const element of value.items) this.addValues(properties, property, element, line, schemaContext, at);
        return;
      case 'object': {
        const literal = value.entries.get('@value');
        if (literal !== undefined) {
          const inner = literal.value;
          if (inner.kind === 'string') properties.add(property, { kind: 'text', text: inner.value, line, valueObject: true });
          else if (inner.kind === 'number') {
            properties.add(property, { kind: 'number', number: inner.value, written: inner.written, line, valueObject: true });
          } else if (inner.kind === 'boolean') properties.add(property, { kind: 'boolean', boolean: inner.value, line, valueObject: true });
          else if (inner.kind === 'null') properties.add(property, { kind: 'null', line });
          return;
        }
        const list = value.entries.get('@list') ?? value.entries.get('@set');
        if (list !== undefined) {
          this.addValues(properties, property, list.value, line, schemaContext, at);
          return;
        }
        const node = this.node(value, schemaContext, at);
        if (node !== null) properties.add(property, { kind: 'node', node, line });
      }
    }
  }
}

function hasType(object: JsonObject): boolean {
  return typesOf(object, true).length > 0;
}

/** The `@type` strings (one, or an array of them), each as a Term. */
function typesOf(object: JsonObject, schemaContext: boolean): Term[] {
  const type = object.entries.get('@type')?.value;
  if (type === undefined) return [];
  const written = type.kind === 'array' ? type.items : [type];
  const types: Term[] = [];
  for (const value of written) {
    if (value.kind === 'string' && value.value.trim() !== '') types.push(jsonLdTerm(value.value, schemaContext));
  }
  return types;
}
