// The value forms structured data is judged by (docs/structured-data.md): ISO 8601 dates, times and
// durations, numbers, booleans and URLs. Pure tests over a value's text, shared by the schema.org
// validation and the rich-result rules.
import type { StructuredValue } from './structured-types.ts';

const ZONE = '(?:Z|[+-](?:[01]\\d|2[0-3]):?[0-5]\\d)';
const TIME = '(?:[01]\\d|2[0-3]):[0-5]\\d(?::(?:[0-5]\\d|60)(?:\\.\\d+)?)?';
const DATE = '\\d{4}(?:-(?:0[1-9]|1[0-2])(?:-(?:0[1-9]|[12]\\d|3[01]))?)?';
const FULL_DATE = '\\d{4}-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12]\\d|3[01])';
const DATE_OR_DATE_TIME = new RegExp(`^(?:${DATE}|${FULL_DATE}T${TIME}${ZONE}?)$`);
const TIME_ONLY = new RegExp(`^${TIME}${ZONE}?$`);
/** P, then date components, then T and time components; at least one component, and one after any T. */
const DURATION = /^P(?!$)(?:\d+(?:[.,]\d+)?Y)?(?:\d+(?:[.,]\d+)?M)?(?:\d+(?:[.,]\d+)?W)?(?:\d+(?:[.,]\d+)?D)?(?:T(?=\d)(?:\d+(?:[.,]\d+)?H)?(?:\d+(?:[.,]\d+)?M)?(?:\d+(?:[.,]\d+)?S)?)?$/;
const NUMERIC = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;
const DIGITS = /^\d+$/;
/** A price as Google reads it: digits with at most one `.`, nothing else (no sign, currency, separator). */
const PRICE = /^(?:\d+(?:\.\d*)?|\.\d+)$/;
const CURRENCY = /^[A-Z]{3}$/;
const SCHEMA_BOOLEAN = /^(?:(?:https?:\/\/schema\.org\/)|schema:)(?:True|False)$/;
const WHITE_SPACE = /\s/;

/** The characters of a value shown in a finding. */
const MAX_VALUE_CHARS = 100;

/** An ISO 8601 date (YYYY, YYYY-MM, YYYY-MM-DD) or date-time; with `time`, also a time of day. */
export function isIsoDate(text: string, time = false): boolean {
  return DATE_OR_DATE_TIME.test(text) || (time && TIME_ONLY.test(text));
}

/** An ISO 8601 duration with at least one component (P1DT2H, PT30M, P2W). */
export function isIsoDuration(text: string): boolean {
  return DURATION.test(text);
}

/** A number as text: 29.99, -3, 1e3 (a `.` decimal, no thousands separator). */
function isNumericText(text: string): boolean {
  return NUMERIC.test(text);
}

/** A JSON number, or a numeric string. */
export function isNumber(value: StructuredValue): boolean {
  if (value.kind === 'number') return true;
  return value.kind === 'text' && isNumericText(value.text.trim());
}

/** A whole number (3, "3", "3.0"), at least `min`. */
export function isWholeNumber(value: StructuredValue, min = Number.NEGATIVE_INFINITY): boolean {
  let number: number;
  if (value.kind === 'number') number = value.number;
  else if (value.kind === 'text' && isNumericText(value.text.trim())) number = Number(value.text.trim());
  else return false;
  return Number.isInteger(number) && number >= min;
}

/** A count or position as Google reads it: a JSON whole number, or a string of digits; at least `min`. */
export function isCount(value: StructuredValue, min: number): boolean {
  if (value.kind === 'number') return Number.isInteger(value.number) && value.number >= min;
  return value.kind === 'text' && DIGITS.test(value.text.trim()) && Number(value.text.trim()) >= min;
}

/** true, false, "true"/"false" in any case, or schema.org's True and False. */
export function isBooleanValue(value: StructuredValue): boolean {
  if (value.kind === 'boolean') return true;
  if (value.kind !== 'text') return false;
  const text = value.text.trim();
  return /^(?:true|false)$/i.test(text) || SCHEMA_BOOLEAN.test(text);
}

/** A string with no white space inside that parses as a URL, absolute or relative to `base`. */
export function isUrlText(text: string, base: string): boolean {
  const trimmed = text.trim();
  if (trimmed === '' || WHITE_SPACE.test(trimmed)) return false;
  return URL.canParse(trimmed, base);
}

/** A price (price, lowPrice): a JSON number ≥ 0, or digits with at most one `.`. */
export function isPrice(value: StructuredValue): boolean {
  if (value.kind === 'number') return value.number >= 0;
  return value.kind === 'text' && PRICE.test(value.text.trim());
}

/** Three capital letters (ISO 4217). */
export function isCurrencyCode(value: StructuredValue): boolean {
  return value.kind === 'text' && CURRENCY.test(value.text.trim());
}

/** A value that is there (docs/structured-data.md, property paths): not null, a blank string or `{}`. */
export function isPresentValue(value: StructuredValue): boolean {
  switch (value.kind) {
    case 'null':
      return false;
    case 'text':
      return value.text.trim() !== '';
    case 'node':
      return value.node.types.length > 0 || value.node.properties.length > 0 || value.node.id !== null;
    default:
      return true;
  }
}

/** The value as the page wrote it, for a finding: cut at MAX_VALUE_CHARS. */
export function writtenValue(value: StructuredValue): string {
  let text: string;
  switch (value.kind) {
    case 'text':
      text = value.text;
      break;
    case 'number':
      text = value.written;
      break;
    case 'boolean':
      text = String(value.boolean);
      break;
    case 'null':
      text = 'null';
      break;
    case 'node':
      text = value.node.types.length > 0 ? `{@type: ${value.node.types.map((type) => type.written).join(' ')}}` : '{…}';
      break;
  }
  return text.length > MAX_VALUE_CHARS ? `${text.slice(0, MAX_VALUE_CHARS - 1)}…` : text;
}
