// The shapes structured data passes through (docs/structured-data.md): the parse step extracts items
// (StructuredExtraction, on the page snapshot), the vocabulary (Vocabulary) and the rich-result tables
// judge them, and the judgement becomes two checks, the report's `structured_data` field and a crawl's
// rich-result facts. Every line is 1-based, in the HTML as served.

export type StructuredFormat = 'json-ld' | 'microdata' | 'rdfa';

/** A type or property name as the page wrote it, and what it means. */
export interface Term {
  /** As written: "Product", "schema:Product", "https://schema.org/Product", "ex:widget". */
  written: string;
  /** The schema.org name ("Product") when the term is schema.org's; null for another vocabulary (not judged). */
  schema: string | null;
}

/**
 * One value of a property. `line`: JSON-LD, the line of the property's key; microdata and RDFa, the
 * line of the start tag of the element carrying the `itemprop` / `property` attribute.
 */
export type StructuredValue =
  | { kind: 'text'; text: string; line: number; valueObject?: true }
  | { kind: 'number'; number: number; written: string; line: number; valueObject?: true }
  | { kind: 'boolean'; boolean: boolean; line: number; valueObject?: true }
  | { kind: 'null'; line: number }
  | { kind: 'node'; node: StructuredNode; line: number };

export interface StructuredProperty {
  name: Term;
  /** In the order written; a property written on several elements (microdata, RDFa) has one value each. */
  values: StructuredValue[];
}

export interface StructuredNode {
  format: StructuredFormat;
  /** The types written on it, in order; [] for an untyped node (a nested JSON-LD object, an itemscope without itemtype). */
  types: Term[];
  /** JSON-LD `@id` as written (microdata `itemid`, RDFa `resource` on a typeof element); null without one. */
  id: string | null;
  /** JSON-LD: it holds nothing but `@id` (and `@context`), standing for the page's node with that `@id`. */
  reference: boolean;
  /** Where it starts: JSON-LD its `{`; microdata and RDFa the start tag carrying `itemscope` / `typeof`. */
  line: number;
  /** In the order first written; keywords (`@id`, `@context`, ...) are not properties. */
  properties: StructuredProperty[];
}

/** A JSON-LD block or top-level node that gives no item (structured_data_valid's first three kinds). */
export type JsonLdProblem =
  | { kind: 'invalid_json'; line: number; message: string }
  | { kind: 'wrong_context'; line: number; context: unknown }
  | { kind: 'missing_type'; line: number };

/** What the parse step finds (parse/structured-collector.ts and structured/json-ld-items.ts). */
export interface StructuredExtraction {
  /** An application/ld+json script, an element with itemscope and itemtype, or one with typeof (inert ones aside). */
  present: boolean;
  /** The formats present, in the order json-ld, microdata, rdfa. */
  formats: StructuredFormat[];
  /** Top-level items of every format, in document order, at most MAX_ITEMS. */
  items: StructuredNode[];
  /** JSON-LD problems, in document order. */
  problems: JsonLdProblem[];
  /** Every JSON-LD node (items and nested) that has an `@id` and is no reference, by `@id` (first wins). */
  byId: ReadonlyMap<string, StructuredNode>;
}

/** Items judged per page; those past it are neither listed nor judged. */
export const MAX_ITEMS = 1000;
/** JSON nested deeper than this is invalid_json ("nested too deep"). */
export const MAX_JSON_DEPTH = 64;

/** The schema.org vocabulary shipped with pagegrade (structured/vocabulary.ts). Names are bare ("Product"). */
export interface Vocabulary {
  /** The schema.org release, "30.0". */
  readonly version: string;
  isClass(name: string): boolean;
  isProperty(name: string): boolean;
  /** The class and every ancestor by subClassOf (empty for an unknown class). */
  ancestors(name: string): ReadonlySet<string>;
  /** `name` is `of` or a subclass of it. */
  isSubclassOf(name: string, of: string): boolean;
  /** The property's domainIncludes and rangeIncludes ([] for an unknown property). */
  domains(property: string): readonly string[];
  ranges(property: string): readonly string[];
  /**
   * A data type as the release marks them (schema:DataType and what is under it): Text, URL, Number,
   * Integer, Float, Boolean, Date, DateTime, Time, their subtypes, and Quantity with Duration, Distance,
   * Energy and Mass (typed schema:DataType in 30.0).
   */
  isDataType(name: string): boolean;
  /** Enumeration or a class under it (ItemAvailability, ...). */
  isEnumeration(name: string): boolean;
  /** A member of the enumeration or of one of its subclasses ("InStock" of ItemAvailability). */
  isMemberOf(member: string, enumeration: string): boolean;
}

/** A finding of structured_data_valid (section 6 of the contract), one per problem. */
export type ValidationFinding =
  | JsonLdProblem
  | { kind: 'unknown_type'; format: StructuredFormat; type: string; line: number }
  | { kind: 'unknown_property'; format: StructuredFormat; type: string; property: string; line: number }
  | { kind: 'invalid_value'; format: StructuredFormat; type: string; property: string; value: string; expected: string; line: number };

/** A rich-result error or warning: `property` a path (`offers.price`, `review|aggregateRating|offers`, `@type`). */
export interface RichResultFinding {
  kind: 'missing_property' | 'invalid_value';
  property: string;
  /** An English sentence naming the property and the problem, never a page's value. */
  message: string;
  line: number;
  /** The offending value as written, cut at 100 characters (invalid_value only). */
  value?: string;
}

/** One item judged against one Google feature. */
export interface RichResultEntry {
  feature: string;
  /** The item's type, as the report's items list it. */
  type: string;
  line: number;
  /** null for a retired feature */
  valid: boolean | null;
  /** null, or the date Google retired the feature ("2026-05-07") */
  retired: string | null;
  errors: RichResultFinding[];
  warnings: RichResultFinding[];
}

/** Everything judged on one page (structured/judge.ts), uncapped: the checks and the report field read it. */
export interface StructuredJudgement {
  extraction: StructuredExtraction;
  validation: ValidationFinding[];
  richResults: RichResultEntry[];
}

/** The report's `structured_data` field (section 5), capped. */
export interface StructuredDataReport {
  schema_org_version: string;
  items: { format: StructuredFormat; type: string; line: number }[];
  rich_results: {
    feature: string;
    type: string;
    line: number;
    valid: boolean | null;
    retired: string | null;
    errors: { property: string; message: string; line: number; value?: string }[];
    warnings: { property: string; message: string; line: number; value?: string }[];
  }[];
  errors: number;
  warnings: number;
  validation_errors: number;
}
