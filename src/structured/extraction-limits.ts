// Bounds on what one page can make the extraction record. Every count here is in the page's hands
// (a page of nested itemscopes, a JSON-LD block of a million values), so each one has a cap, far
// above what real pages use; past a cap the extra nodes, values or text are left out.
import { MAX_ITEMS, type StructuredFormat, type StructuredNode, type StructuredProperty, type StructuredValue, type Term } from './structured-types.ts';

/** Nodes per page: items and nested entities of every format. */
const MAX_NODES = 20_000;
/** Values per node, over all its properties (also its number of properties). */
export const MAX_VALUES_PER_NODE = 1_000;
/** Values per page. */
const MAX_VALUES = 200_000;
/** itemref tokens followed per itemscope. */
export const MAX_ITEMREF_TOKENS = 100;
/** itemprop / property elements followed per page. */
export const MAX_PROPERTY_ELEMENTS = 50_000;
/** Characters of one text-content value (whitespace folded); the rest is cut off. */
export const MAX_TEXT_CHARS = 10_000;
/** Characters of page text read into text-content values per page (nested values read the same text again). */
export const MAX_TEXT_READ = 2_000_000;
/** JSON-LD problems per page, like the items. */
export const MAX_PROBLEMS = MAX_ITEMS;

/** The page-wide counts, and every node made (so that each one's line is assigned once). */
export class ExtractionBudget {
  readonly nodes: StructuredNode[] = [];
  private values = 0;
  /** Characters read into text-content values so far. */
  textRead = 0;

  /** A new node whose `line` holds its start offset until lines are assigned; null past MAX_NODES. */
  node(format: StructuredFormat, types: Term[], id: string | null, reference: boolean, offset: number): StructuredNode | null {
    if (this.nodes.length >= MAX_NODES) return null;
    const node: StructuredNode = { format, types, id, reference, line: offset, properties: [] };
    this.nodes.push(node);
    return node;
  }

  /** Whether the page's allowance of values is not spent yet. */
  hasValues(): boolean {
    return this.values < MAX_VALUES;
  }

  /** Takes one value from the page's allowance; false once it is spent. */
  takeValue(): boolean {
    if (this.values >= MAX_VALUES) return false;
    this.values++;
    return true;
  }
}

/** Properties a node may have before NodeProperties indexes them by name (fewer are found faster by looking). */
const INDEXED_FROM = 8;

/** Fills one node's properties: values grouped by the name as written, in the order first written, within the caps. */
export class NodeProperties {
  private byName: Map<string, StructuredProperty> | null = null;
  private values = 0;

  constructor(
    readonly node: StructuredNode,
    private readonly budget: ExtractionBudget,
  ) {}

  /** The property of that name, made on first use (a property may have no value: `"image": []`); null past the cap. */
  property(name: Term): StructuredProperty | null {
    const properties = this.node.properties;
    const found = this.byName !== null ? this.byName.get(name.written) : properties.find((property) => property.name.written === name.written);
    if (found !== undefined) return found;
    if (properties.length >= MAX_VALUES_PER_NODE) return null;
    const property: StructuredProperty = { name, values: [] };
    properties.push(property);
    if (this.byName !== null) this.byName.set(name.written, property);
    else if (properties.length >= INDEXED_FROM) this.byName = new Map(properties.map((known) => [known.name.written, known]));
    return property;
  }

  /** Adds a value to `property`; false (value dropped) past the caps. */
  add(property: StructuredProperty, value: StructuredValue): boolean {
    if (this.values >= MAX_VALUES_PER_NODE || !this.budget.takeValue()) return false;
    this.values++;
    property.values.push(value);
    return true;
  }
}
