// How the three formats name schema.org terms (docs/structured-data.md): a type or property may be
// bare (`Product`), `schema:`-prefixed, or a full schema.org IRI under http or https. Everything else
// is a term of another vocabulary, kept as written and not judged (Term.schema null).
import { isAsciiWhitespace } from '../parse/whitespace.ts';
import type { Term } from './structured-types.ts';

/** `https://schema.org/Product`, `http://schema.org/Product/`: the name, as written, after the namespace. */
const SCHEMA_IRI = /^https?:\/\/schema\.org\/([^\s/?#]+)\/?$/i;
/** A JSON-LD @context naming schema.org, as the structured_data check reads it. */
const SCHEMA_CONTEXT = /^https?:\/\/schema\.org(\/|\/docs\/jsonldcontext\.json(ld)?)?$/i;
/** An RDFa vocab naming schema.org. */
const SCHEMA_VOCAB = /^https?:\/\/schema\.org\/?$/i;
const SCHEMA_PREFIX = /^schema:/i;

/** The schema.org name a full schema.org IRI stands for, or null. */
export function schemaNameOfIri(iri: string): string | null {
  const match = SCHEMA_IRI.exec(iri.trim());
  return match === null ? null : match[1];
}

export function isSchemaOrgVocab(vocab: string): boolean {
  return SCHEMA_VOCAB.test(vocab.trim());
}

/**
 * A JSON-LD term: bare names mean schema.org's only under a schema.org @context; `schema:` and the
 * full IRIs always do; any other prefixed name or IRI is another vocabulary's.
 */
export function jsonLdTerm(written: string, schemaContext: boolean): Term {
  const trimmed = written.trim();
  const fromIri = schemaNameOfIri(trimmed);
  if (fromIri !== null) return { written, schema: fromIri };
  if (SCHEMA_PREFIX.test(trimmed)) {
    const name = trimmed.slice('schema:'.length);
    return { written, schema: name !== '' && !name.includes('/') ? name : null };
  }
  if (trimmed === '' || trimmed.includes(':') || !schemaContext) return { written, schema: null };
  return { written, schema: trimmed };
}

/** A JSON-LD `@context` (as plain JSON) that is schema.org's: a string, an array holding one, or an object whose `@vocab` is one. */
export function isSchemaOrgContext(context: unknown): boolean {
  if (typeof context === 'string') return SCHEMA_CONTEXT.test(context.trim());
  if (Array.isArray(context)) return context.some(isSchemaOrgContext);
  if (typeof context === 'object' && context !== null) {
    const vocab = (context as Record<string, unknown>)['@vocab'];
    return typeof vocab === 'string' && SCHEMA_CONTEXT.test(vocab.trim());
  }
  return false;
}

/** The HTML standard's "split on ASCII whitespace". */
export function splitTokens(value: string | undefined): string[] {
  if (value === undefined) return [];
  const tokens: string[] = [];
  let i = 0;
  while (i < value.length) {
    while (i < value.length && isAsciiWhitespace(value.charCodeAt(i))) i++;
    const start = i;
    while (i < value.length && !isAsciiWhitespace(value.charCodeAt(i))) i++;
    if (i > start) tokens.push(value.slice(start, i));
  }
  return tokens;
}
