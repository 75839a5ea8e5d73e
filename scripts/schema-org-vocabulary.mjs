// Derives the schema.org index pagegrade ships, src/structured/schema-org-30.0.json, from the release's
// JSON-LD in vocabulary/schema.org-30.0/ (docs/structured-data.md, "The schema.org vocabulary"):
//
//   node scripts/schema-org-vocabulary.mjs
//
// The index keeps what validation needs and nothing else (no comments, labels or mappings): the classes
// with their direct subClassOf parents, the properties with domainIncludes and rangeIncludes, the
// enumeration members with their types, and which classes are data types. Core and pending terms are
// kept; attic terms are dropped, so they are unknown. Terms of other vocabularies the file declares for
// its mappings (unece:Invoice, dct:subject, ...) are dropped too, as is any reference to a term not kept.
// Names are bare ("Product"). The output is deterministic (keys and lists sorted, one term a line), so a
// new release reads as a diff of the terms it changed, and vocabulary.test.ts checks that the
// committed index is this function's output. Plain JavaScript, so it runs with no TypeScript loader.
import { readFileSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';

const ROOT = join(import.meta.dirname, '..');
export const SCHEMA_ORG_SOURCE = join(ROOT, 'vocabulary/schema.org-30.0/schemaorg-current-https.jsonld');
export const SCHEMA_ORG_INDEX = join(ROOT, 'src/structured/schema-org-30.0.json');
const VERSION = '30.0';

const SCHEMA_PREFIXES = ['schema:', 'https://schema.org/', 'http://schema.org/'];
const ATTIC = 'https://attic.schema.org';
/** The file marks the roots of the data types (Text, Number, Date, Quantity, ...) by this type. */
const DATA_TYPE = 'DataType';

/** A JSON-LD value that may be one item or an array, as an array. */
function list(value) {
  if (value === undefined || value === null) return [];
  return Array.isArray(value) ? value : [value];
}

/** The IRIs of a value: `{"@id": ...}` objects or plain strings. */
function ids(value) {
  return list(value).map((item) => (typeof item === 'string' ? item : item['@id']));
}

/** The bare schema.org name of an IRI ("schema:Product" -> "Product"), null for another vocabulary. */
function bare(iri) {
  const prefix = typeof iri === 'string' ? SCHEMA_PREFIXES.find((candidate) => iri.startsWith(candidate)) : undefined;
  return prefix === undefined ? null : iri.slice(prefix.length);
}

/** Sorted, without repeats: the order of the source file carries no meaning. */
function sorted(names) {
  return [...new Set(names)].sort();
}

/**
 * The index of a schema.org release's JSON-LD (`schemaorg-current-https.jsonld`, parsed):
 * `{classes: {Name: [parents]}, dataTypes: [Name], members: {Name: [types]}, properties:
 * {name: {domains, ranges}}, version}`.
 */
export function deriveVocabulary(jsonld, version = VERSION) {
  const nodes = list(jsonld['@graph']).filter(
    (node) => bare(node['@id']) !== null && !ids(node['schema:isPartOf']).includes(ATTIC),
  );
  const isClassNode = (node) => list(node['@type']).includes('rdfs:Class');
  const classNames = new Set(nodes.filter(isClassNode).map((node) => bare(node['@id'])));
  /** The bare names of the kept classes among `iris`. */
  const knownClasses = (iris) => sorted(iris.map(bare).filter((name) => name !== null && classNames.has(name)));

  const classes = {};
  const dataTypeRoots = new Set([DATA_TYPE]);
  const properties = {};
  const members = {};
  for (const node of nodes) {
    const name = bare(node['@id']);
    const types = ids(node['@type']);
    if (isClassNode(node)) {
      classes[name] = knownClasses(ids(node['rdfs:subClassOf']));
      if (types.includes(`schema:${DATA_TYPE}`)) dataTypeRoots.add(name);
    }
    if (types.includes('rdf:Property')) {
      properties[name] = {
        domains: knownClasses(ids(node['schema:domainIncludes'])),
        ranges: knownClasses(ids(node['schema:rangeIncludes'])),
      };
    }
    // An individual (schema:InStock is a schema:ItemAvailability; a few have several types). Being a
    // DataType is how the file marks a data type, not membership of anything.
    const memberOf = knownClasses(types).filter((type) => type !== DATA_TYPE);
    if (memberOf.length > 0) members[name] = memberOf;
  }

  // A data type: a root the file marks, or a subclass of one (URL of Text, Integer of Number, Duration of Quantity).
  const dataTypes = Object.keys(classes)
    .filter((name) => descends(classes, name, (candidate) => dataTypeRoots.has(candidate)))
    .sort();
  return { classes, dataTypes, members, properties, version };
}

/** `name` or one of its ancestors by subClassOf passes `isRoot`. */
function descends(classes, name, isRoot, seen = new Set()) {
  if (isRoot(name)) return true;
  if (seen.has(name)) return false;
  seen.add(name);
  return (classes[name] ?? []).some((parent) => descends(classes, parent, isRoot, seen));
}

/** A JSON value with every object's keys sorted. */
function withSortedKeys(value) {
  if (Array.isArray(value)) return value.map(withSortedKeys);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.keys(value)
      .sort()
      .map((key) => [key, withSortedKeys(value[key])]),
  );
}

/** The index as the committed file holds it: keys sorted, one term a line. */
export function formatVocabulary(index) {
  const sections = Object.entries(withSortedKeys(index)).map(([key, value]) => {
    const isMap = value !== null && typeof value === 'object' && !Array.isArray(value);
    const body = isMap
      ? `{\n${Object.entries(value)
          .map(([term, entry]) => `${JSON.stringify(term)}:${JSON.stringify(entry)}`)
          .join(',\n')}\n}`
      : JSON.stringify(value);
    return `${JSON.stringify(key)}:${body}`;
  });
  return `{\n${sections.join(',\n')}\n}\n`;
}

function main() {
  const index = deriveVocabulary(JSON.parse(readFileSync(SCHEMA_ORG_SOURCE, 'utf8')));
  const text = formatVocabulary(index);
  writeFileSync(SCHEMA_ORG_INDEX, text);
  const enumerations = Object.keys(index.classes).filter((name) => descends(index.classes, name, (c) => c === 'Enumeration'));
  console.log(
    `schema.org ${index.version}: wrote ${relative(ROOT, SCHEMA_ORG_INDEX)} (${(Buffer.byteLength(text) / 1024).toFixed(1)} KB): ` +
      `${Object.keys(index.classes).length} classes (${index.dataTypes.length} data types, ${enumerations.length} enumerations), ` +
      `${Object.keys(index.properties).length} properties, ${Object.keys(index.members).length} enumeration members`,
  );
}

if (resolve(process.argv[1] ?? '') === import.meta.filename) main();
