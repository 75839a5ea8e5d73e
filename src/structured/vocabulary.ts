// The schema.org vocabulary pagegrade validates against (docs/structured-data.md, "The schema.org
// vocabulary"): release 30.0, read at import from schema-org-30.0.json beside this module (the build
// copies it into dist/), which scripts/schema-org-vocabulary.mjs derives from the release's JSON-LD.
// Nothing is fetched at run time. Names are bare ("Product") and case-sensitive.
import { readFileSync } from 'node:fs';
import type { Vocabulary } from './structured-types.ts';

export const SCHEMA_ORG_VERSION = '30.0';

/** The shape scripts/schema-org-vocabulary.mjs writes. */
interface VocabularyIndex {
  version: string;
  /** Every class, with its direct subClassOf parents. */
  classes: Record<string, string[]>;
  /** DataType, the classes the file types schema:DataType (Text, Number, Date, Quantity, ...) and their subclasses. */
  dataTypes: string[];
  /** Individuals (InStock, Radiography, True) with their types. */
  members: Record<string, string[]>;
  properties: Record<string, { domains: string[]; ranges: string[] }>;
}

const NONE: readonly string[] = Object.freeze([]);
const NO_CLASSES: ReadonlySet<string> = new Set();

/** Maps, not the parsed objects: a page's `constructor` or `__proto__` must not read as a term. */
function entries<T>(record: Record<string, T>): Map<string, T> {
  return new Map(Object.entries(record));
}

function loadVocabulary(): Vocabulary {
  const index = JSON.parse(readFileSync(new URL('./schema-org-30.0.json', import.meta.url), 'utf8')) as VocabularyIndex;
  if (index.version !== SCHEMA_ORG_VERSION) {
    throw new Error(`schema-org-30.0.json holds schema.org ${index.version}, not ${SCHEMA_ORG_VERSION}`);
  }
  const parents = entries(index.classes);
  const properties = entries(index.properties);
  const members = entries(index.members);
  const dataTypes = new Set(index.dataTypes);
  // Memoized per known class only, so a page's unknown names cannot grow it.
  const ancestorSets = new Map<string, ReadonlySet<string>>();

  function ancestors(name: string): ReadonlySet<string> {
    const known = ancestorSets.get(name);
    if (known) return known;
    const direct = parents.get(name);
    if (!direct) return NO_CLASSES;
    const all = new Set([name]);
    ancestorSets.set(name, all); // a subClassOf cycle, should a release ever have one, ends here
    for (const parent of direct) for (const ancestor of ancestors(parent)) all.add(ancestor);
    return all;
  }

  const isSubclassOf = (name: string, of: string): boolean => ancestors(name).has(of);

  return {
    version: index.version,
    isClass: (name) => parents.has(name),
    isProperty: (name) => properties.has(name),
    ancestors,
    isSubclassOf,
    domains: (property) => properties.get(property)?.domains ?? NONE,
    ranges: (property) => properties.get(property)?.ranges ?? NONE,
    isDataType: (name) => dataTypes.has(name),
    // Enumeration itself counts: a range of Enumeration (measurementQualifier) wants a member of any enumeration.
    isEnumeration: (name) => isSubclassOf(name, 'Enumeration'),
    isMemberOf: (member, enumeration) => (members.get(member) ?? NONE).some((type) => isSubclassOf(type, enumeration)),
  };
}

export const schemaOrg: Vocabulary = loadVocabulary();
