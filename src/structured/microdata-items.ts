// Microdata items (docs/structured-data.md, "Extraction"), built from what the parse pass records.
// An element with itemscope is a scope: an item when it has a non-empty itemtype and no itemprop, the
// value of a property when it has itemprop, otherwise nothing but a boundary. An itemprop element
// belongs, as the HTML standard's microdata algorithm crawls it, to its nearest itemscope ancestor and
// to every scope whose itemref names an element on its way up to that ancestor: so the parse pass
// records, for each itemprop element, that ancestor and the ids between it (exclusive) and the element
// (inclusive), and the properties are put together once the document has ended.
import { ExtractionBudget, MAX_ITEMREF_TOKENS, MAX_PROPERTY_ELEMENTS, MAX_VALUES_PER_NODE, NodeProperties } from './extraction-limits.ts';
import type { StructuredNode, StructuredValue, Term } from './structured-types.ts';
import { schemaNameOfIri } from './term-names.ts';

/** The attributes a microdata value may come from (the parse step's StartTagAttributes has them all). */
export interface MicrodataValueAttributes {
  readonly content?: string | undefined;
  readonly src?: string | undefined;
  readonly href?: string | undefined;
  readonly data?: string | undefined;
  readonly value?: string | undefined;
  readonly datetime?: string | undefined;
}

/** A value read from an attribute; `url`: resolve it against the page's final URL. */
export interface AttributeValue {
  text: string;
  url: boolean;
}

const SRC_ELEMENTS = new Set(['audio', 'embed', 'iframe', 'img', 'source', 'track', 'video']);
const HREF_ELEMENTS = new Set(['a', 'area', 'link']);

/**
 * The value of an itemprop element without itemscope, in the order the extraction rules give: `content`
 * on any element (as Google reads it), then the element's URL or value attribute; null when it is the
 * text content. An element lacking the attribute its kind would take (an `<a>` without href, a `<time>`
 * without datetime) has its text content, as for any other element.
 */
export function microdataAttributeValue(tag: string, attrs: MicrodataValueAttributes): AttributeValue | null {
  if (attrs.content !== undefined) return { text: attrs.content, url: false };
  if (attrs.src !== undefined && SRC_ELEMENTS.has(tag)) return { text: attrs.src, url: true };
  if (attrs.href !== undefined && HREF_ELEMENTS.has(tag)) return { text: attrs.href, url: true };
  if (attrs.data !== undefined && tag === 'object') return { text: attrs.data, url: true };
  if (attrs.value !== undefined && (tag === 'data' || tag === 'meter')) return { text: attrs.value, url: false };
  if (attrs.datetime !== undefined && tag === 'time') return { text: attrs.datetime, url: false };
  return null;
}

/** An itemscope element. */
export interface MicrodataScope {
  /** null for an itemscope that is neither an item nor a value (or past the node cap): its properties are dropped. */
  readonly node: StructuredNode | null;
  /** Unique itemref tokens. */
  readonly itemref: readonly string[];
  /** Its itemprop elements that have it as nearest itemscope ancestor, in document order. */
  readonly elements: PropertyElement[];
}

/** What an itemprop element's value is: the item of its own itemscope, or text (filled in as its text content is read). */
export type PendingValue = { kind: 'node'; scope: MicrodataScope } | { kind: 'text'; text: string };

interface PropertyElement {
  /** Unique itemprop tokens. */
  names: string[];
  /** Document order. */
  seq: number;
  /** Offset of its start tag. */
  offset: number;
  value: PendingValue;
}

export class MicrodataItems {
  /** Items in document order. */
  readonly items: StructuredNode[] = [];
  private readonly scopes: MicrodataScope[] = [];
  /** Elements by each id on their way up to their itemscope ancestor, for itemref. */
  private readonly byPathId = new Map<string, PropertyElement[]>();
  private referencing = false;
  private elementCount = 0;

  constructor(private readonly budget: ExtractionBudget) {}

  /**
   * An itemscope element at `offset`: `types` its itemtype tokens, `isItem` when it has a non-empty
   * itemtype and no itemprop, `isValue` when it has itemprop.
   */
  openScope(types: string[], itemid: string | undefined, itemref: string[], isItem: boolean, isValue: boolean, offset: number): MicrodataScope {
    let node: StructuredNode | null = null;
    if (isItem || isValue) {
      const terms = types.map((type): Term => ({ written: type, schema: schemaNameOfIri(type) }));
      node = this.budget.node('microdata', terms, itemid ?? null, false, offset);
      if (node !== null && isItem) this.items.push(node);
    }
    const scope: MicrodataScope = { node, itemref: unique(itemref).slice(0, MAX_ITEMREF_TOKENS), elements: [] };
    if (scope.itemref.length > 0 && node !== null) this.referencing = true;
    this.scopes.push(scope);
    return scope;
  }

  /**
   * An itemprop element at `offset` with tokens `names`: `owner` its nearest itemscope ancestor,
   * `pathIds` the ids from below it to the element itself.
   */
  addPropertyElement(owner: MicrodataScope | null, pathIds: string[] | null, names: string[], value: PendingValue, offset: number): void {
    if (this.elementCount >= MAX_PROPERTY_ELEMENTS) return;
    this.elementCount++;
    const element: PropertyElement = { names: unique(names), seq: this.elementCount, offset, value };
    if (owner !== null) owner.elements.push(element);
    if (pathIds === null) return;
    for (const id of pathIds) {
      const list = this.byPathId.get(id);
      if (list === undefined) this.byPathId.set(id, [element]);
      else list.push(element);
    }
  }

  /** Puts every item's properties together, once the document has ended and text values are complete. */
  finish(): void {
    for (const scope of this.scopes) {
      if (!this.budget.hasValues()) break;
      if (scope.node === null) continue;
      const properties = new NodeProperties(scope.node, this.budget);
      const vocabularyIsSchema = scope.node.types.length === 0 || scope.node.types.some((type) => type.schema !== null);
      for (const element of this.elementsOf(scope)) {
        // an itemscope element referencing itself is no property of its own
        if (element.value.kind === 'node' && element.value.scope === scope) continue;
        if (element.value.kind === 'node' && element.value.scope.node === null) continue;
        for (const name of element.names) {
          const property = properties.property(microdataProperty(name, vocabularyIsSchema));
          if (property === null) break;
          properties.add(property, valueOf(element));
        }
      }
    }
    if (this.referencing) breakCycles(this.scopes.flatMap((scope) => (scope.node === null ? [] : [scope.node])));
  }

  /**
   * The scope's itemprop elements, its own and those its itemref reaches, in document order. Each list
   * is in document order, and a node takes at most MAX_VALUES_PER_NODE values, so no more than that
   * many are taken from each: many items referencing one large element cost no more than that each.
   */
  private elementsOf(scope: MicrodataScope): PropertyElement[] {
    if (scope.itemref.length === 0) return scope.elements;
    const found = new Set(scope.elements.slice(0, MAX_VALUES_PER_NODE));
    for (const id of scope.itemref) {
      const elements = this.byPathId.get(id);
      if (elements === undefined) continue;
      for (let index = 0; index < elements.length && index < MAX_VALUES_PER_NODE; index++) found.add(elements[index]);
    }
    return [...found].sort((a, b) => a.seq - b.seq).slice(0, MAX_VALUES_PER_NODE);
  }
}

/** An itemprop token as a Term: a full schema.org IRI means the bare name; a bare name is the item's vocabulary's. */
function microdataProperty(token: string, vocabularyIsSchema: boolean): Term {
  const name = schemaNameOfIri(token);
  if (name !== null) return { written: token, schema: name };
  return { written: token, schema: vocabularyIsSchema && !token.includes(':') ? token : null };
}

/** A fresh value object for each property it goes to (each one's line is assigned once). */
function valueOf(element: PropertyElement): StructuredValue {
  const value = element.value;
  if (value.kind === 'text') return { kind: 'text', text: value.text, line: element.offset };
  return { kind: 'node', node: value.scope.node as StructuredNode, line: element.offset };
}

function unique(tokens: string[]): string[] {
  return tokens.length < 2 ? tokens : [...new Set(tokens)];
}

/**
 * itemref can make an item a value of itself, directly or through others. Those values are dropped
 * (the HTML standard's algorithm reports them as errors), so the nodes can be walked without end.
 */
function breakCycles(roots: StructuredNode[]): void {
  const ON_PATH = 1;
  const DONE = 2;
  const state = new Map<StructuredNode, number>();
  for (const root of roots) {
    if (state.has(root)) continue;
    state.set(root, ON_PATH);
    const path = [{ node: root, property: 0, value: 0 }];
    while (path.length > 0) {
      const frame = path[path.length - 1];
      const properties = frame.node.properties;
      if (frame.property >= properties.length) {
        state.set(frame.node, DONE);
        path.pop();
        continue;
      }
      const values = properties[frame.property].values;
      if (frame.value >= values.length) {
        frame.property++;
        frame.value = 0;
        continue;
      }
      const value = values[frame.value];
      if (value.kind === 'node') {
        const seen = state.get(value.node);
        if (seen === ON_PATH) {
          values.splice(frame.value, 1);
          continue;
        }
        if (seen === undefined) {
          state.set(value.node, ON_PATH);
          frame.value++;
          path.push({ node: value.node, property: 0, value: 0 });
          continue;
        }
      }
      frame.value++;
    }
  }
}
