// RDFa Lite items (docs/structured-data.md, "Extraction"): `vocab`, `typeof`, `property`, `resource`
// and `prefix`. An element with typeof is an item when it has no property attribute, else the value of
// that property of the nearest enclosing typeof element; a property element gives its value to that
// element's node. Terms resolve against the nearest vocab, or through a prefix (`schema:` predefined,
// as in RDFa 1.1's initial context). The parse pass follows the elements (parse/structured-collector.ts);
// this file has the rules.
import { ExtractionBudget, NodeProperties } from './extraction-limits.ts';
import type { AttributeValue } from './microdata-items.ts';
import type { StructuredNode, Term } from './structured-types.ts';
import { isSchemaOrgVocab, schemaNameOfIri, splitTokens } from './term-names.ts';

/** Prefix (lower-case) -> IRI it stands for. */
export type Prefixes = ReadonlyMap<string, string>;

export const INITIAL_PREFIXES: Prefixes = new Map([['schema', 'https://schema.org/']]);

/** The mappings in force inside an element with `prefix="ex: https://example.org/ns# ..."`. */
export function withPrefixes(parent: Prefixes, attribute: string): Prefixes {
  const tokens = splitTokens(attribute);
  let prefixes: Map<string, string> | null = null;
  for (let i = 0; i + 1 < tokens.length; i++) {
    const token = tokens[i];
    if (token.length < 2 || !token.endsWith(':')) continue;
    prefixes ??= new Map(parent);
    prefixes.set(token.slice(0, -1).toLowerCase(), tokens[i + 1]);
    i++;
  }
  return prefixes ?? parent;
}

/**
 * A typeof or property token: a bare term is the nearest vocab's (schema.org's when that vocab is
 * https://schema.org/ or http://schema.org/, with or without the slash); `prefix:name` goes through the
 * prefixes in force; anything else with a colon is an IRI.
 */
export function rdfaTerm(token: string, vocab: string | null, prefixes: Prefixes): Term {
  const colon = token.indexOf(':');
  if (colon === -1) return { written: token, schema: vocab !== null && isSchemaOrgVocab(vocab) ? token : null };
  const rest = token.slice(colon + 1);
  const mapped = rest.startsWith('//') ? undefined : prefixes.get(token.slice(0, colon).toLowerCase());
  return { written: token, schema: schemaNameOfIri(mapped === undefined ? token : mapped + rest) };
}

/** The attributes an RDFa value may come from (the parse step's StartTagAttributes has them all). */
export interface RdfaValueAttributes {
  readonly content?: string | undefined;
  readonly resource?: string | undefined;
  readonly href?: string | undefined;
  readonly src?: string | undefined;
  readonly datetime?: string | undefined;
}

/**
 * The value of a property element without typeof: `content`; else the resource it names (`resource`,
 * `href`, `src`, in RDFa 1.1's order of precedence; `resource` may be a CURIE, so it stays as written);
 * else `datetime` of a `<time>`; null when it is the text content.
 */
export function rdfaAttributeValue(tag: string, attrs: RdfaValueAttributes): AttributeValue | null {
  if (attrs.content !== undefined) return { text: attrs.content, url: false };
  if (attrs.resource !== undefined) return { text: attrs.resource, url: false };
  if (attrs.href !== undefined) return { text: attrs.href, url: true };
  if (attrs.src !== undefined) return { text: attrs.src, url: true };
  if (attrs.datetime !== undefined && tag === 'time') return { text: attrs.datetime, url: false };
  return null;
}

export class RdfaItems {
  /** Items in document order. */
  readonly items: StructuredNode[] = [];

  constructor(private readonly budget: ExtractionBudget) {}

  /**
   * A typeof element at `offset`: its node, to take the properties inside it; null when it is neither
   * an item (typed, no property attribute) nor a value (a property of an enclosing node), or past the cap.
   */
  openNode(types: Term[], resource: string | undefined, isItem: boolean, isValue: boolean, offset: number): NodeProperties | null {
    if (!isItem && !isValue) return null;
    const node = this.budget.node('rdfa', types, resource ?? null, false, offset);
    if (node === null) return null;
    if (isItem) this.items.push(node);
    return new NodeProperties(node, this.budget);
  }
}
