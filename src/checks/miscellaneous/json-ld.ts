// Reads JSON-LD blocks the way a schema.org consumer does: top-level arrays, `@graph`, and the
// forms `@context` takes (string, array, object with `@vocab`).
import type { JsonLdBlock } from '../../parse/page-snapshot.ts';

export type JsonLdReading =
  | { kind: 'invalid_json'; message: string }
  | { kind: 'wrong_context'; context: unknown; types: string[] }
  | { kind: 'valid'; types: string[] };

const MAX_MESSAGE_CHARS = 200;
/** schema.org, with either scheme and with or without the trailing slash, or its context document. */
const SCHEMA_ORG = /^https?:\/\/schema\.org(\/|\/docs\/jsonldcontext\.json(ld)?)?$/i;

export function readJsonLd(block: JsonLdBlock): JsonLdReading {
  let data: unknown;
  try {
    data = JSON.parse(block.raw);
  } catch (error) {
    // Some CMSs wrap the block in CDATA (an XHTML habit); JSON parsers and many consumers reject it.
    const hint = /^(\/\/\s*|\/\*\s*)?<!\[CDATA\[/.test(block.raw) ? 'wrapped in <![CDATA[ ]]>, which is not JSON: ' : '';
    const message = String(error instanceof Error ? error.message : error);
    return { kind: 'invalid_json', message: (hint + message).slice(0, MAX_MESSAGE_CHARS) };
  }
  const nodes = Array.isArray(data) ? data : [data];
  if (nodes.length === 0 || !nodes.every(isObject)) {
    return { kind: 'invalid_json', message: 'not a JSON-LD object or array of objects' };
  }
  const types = nodes.flatMap(nodeTypes);
  // Each top-level node carries its own context; @graph items inherit their parent's.
  const wrong = nodes.find((node) => !isSchemaOrgContext(node['@context']));
  if (wrong) return { kind: 'wrong_context', context: wrong['@context'] ?? null, types };
  return { kind: 'valid', types };
}

/** A type name without the schema.org prefix it may carry ("https://schema.org/Product", "schema:Product"). */
export function shortTypeName(type: string): string {
  return type.trim().replace(/^https?:\/\/schema\.org\//i, '').replace(/^schema:/i, '');
}

function nodeTypes(node: Record<string, unknown>): string[] {
  const own = typeList(node['@type']);
  const graph = Array.isArray(node['@graph']) ? node['@graph'].filter(isObject).flatMap((item) => typeList(item['@type'])) : [];
  return [...own, ...graph];
}

function typeList(type: unknown): string[] {
  const list = Array.isArray(type) ? type : [type];
  return list.filter((item): item is string => typeof item === 'string' && item.trim() !== '').map(shortTypeName);
}

function isSchemaOrgContext(context: unknown): boolean {
  if (typeof context === 'string') return SCHEMA_ORG.test(context.trim());
  if (Array.isArray(context)) return context.some(isSchemaOrgContext);
  if (isObject(context)) return typeof context['@vocab'] === 'string' && SCHEMA_ORG.test(context['@vocab'].trim());
  return false;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
