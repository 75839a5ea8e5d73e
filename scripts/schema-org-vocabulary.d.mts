// Types of schema-org-vocabulary.mjs, for vocabulary.test.ts (the script stays plain JavaScript).

/** The index the script writes: what src/structured/vocabulary.ts loads. */
export interface SchemaOrgIndex {
  classes: Record<string, string[]>;
  dataTypes: string[];
  members: Record<string, string[]>;
  properties: Record<string, { domains: string[]; ranges: string[] }>;
  version: string;
}

export const SCHEMA_ORG_SOURCE: string;
export const SCHEMA_ORG_INDEX: string;
export function deriveVocabulary(jsonld: unknown, version?: string): SchemaOrgIndex;
export function formatVocabulary(index: SchemaOrgIndex): string;
