// The errors of `rich_results` and `structured_data_valid` as the command line shows them: each item
// is a finding at a line of the page (docs/structured-data.md, "The command line"), so it reads as one
// sentence with its line, rather than as the generic "key: value" list, and SARIF gives each its own
// result at that line.
import { truncate } from './terminal-text.ts';

/** The checks whose every error item is a finding located by `line`. */
export const FINDING_CHECKS: ReadonlySet<string> = new Set(['rich_results', 'structured_data_valid']);

const FORMAT_NAMES: Record<string, string> = { 'json-ld': 'JSON-LD', microdata: 'microdata', rdfa: 'RDFa' };
/** A JSON-LD `@context` that is not schema.org's is shown, cut to this. */
const MAX_CONTEXT_CHARS = 80;

interface Finding {
  /** The kind of error (`missing_property`, `unknown_type`, ...). */
  kind: string;
  /** 1-based line of the page's HTML; 1 when the item gives none. */
  line: number;
  /** What is wrong, a sentence without the line or the offending value. */
  text: string;
  /** The offending value as the page wrote it (an `invalid_value`'s), when there is one. */
  value?: string;
  /** The item's own fields, for the SARIF result's properties and fingerprint. */
  fields: Record<string, unknown>;
}

const recordOf = (item: unknown): Record<string, unknown> =>
  typeof item === 'object' && item !== null && !Array.isArray(item) ? (item as Record<string, unknown>) : {};
const field = (record: Record<string, unknown>, key: string): string => (typeof record[key] === 'string' ? record[key] : '?');
/** Ends with a full stop unless it already ends a sentence. */
const sentence = (text: string): string => (/[.!?]$/.test(text) ? text : `${text}.`);

function richResultText(item: Record<string, unknown>): string {
  return sentence(`${field(item, 'feature')} (${field(item, 'type')}), ${field(item, 'property')}: ${field(item, 'message')}`);
}

function validationText(kind: string, item: Record<string, unknown>): string {
  const type = field(item, 'type');
  const property = field(item, 'property');
  const format = FORMAT_NAMES[field(item, 'format')] ?? field(item, 'format');
  switch (kind) {
    case 'invalid_json':
      return sentence(`A JSON-LD block is not valid JSON: ${field(item, 'message')}`);
    case 'wrong_context': {
      const context = item.context === undefined || item.context === null ? 'none' : truncate(JSON.stringify(item.context), MAX_CONTEXT_CHARS);
      return `A JSON-LD node has no schema.org @context (it has ${context}), so its data is not judged.`;
    }
    case 'missing_type':
      return 'A JSON-LD node has neither @type nor @graph.';
    case 'unknown_type':
      return `${type} (${format}): not a schema.org type.`;
    case 'unknown_property':
      return `${type} (${format}), ${property}: not a schema.org property of ${type}.`;
    case 'invalid_value':
      return sentence(`${type} (${format}), ${property}: expected ${field(item, 'expected')}`);
    default:
      return sentence(`${kind.replaceAll('_', ' ')}: ${JSON.stringify(item)}`);
  }
}

/** Every error item of one of FINDING_CHECKS, kind by kind in the order the check gives them. */
export function findingsOf(checkId: string, errors: Record<string, unknown[]> | null): Finding[] {
  return Object.entries(errors ?? {}).flatMap(([kind, items]) =>
    items.map((item) => {
      const fields = recordOf(item);
      const line = typeof fields.line === 'number' && Number.isInteger(fields.line) && fields.line >= 1 ? fields.line : 1;
      const text = checkId === 'rich_results' ? richResultText(fields) : validationText(kind, fields);
      return { kind, line, text, ...(typeof fields.value === 'string' ? { value: fields.value } : {}), fields };
    }),
  );
}

/** One line for people: "line 21: Product snippets (Product), offers.price: ... (value: "ninety")". */
export function findingLine(finding: Finding): string {
  const value = finding.value === undefined ? '' : ` (value: ${JSON.stringify(finding.value)})`;
  return `line ${finding.line}: ${finding.text}${value}`;
}
