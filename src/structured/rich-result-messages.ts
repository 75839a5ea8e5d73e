// Every sentence a rich-result finding says, in one place. A message names the property (the last name
// of its path) and the problem and never a page's value, so one problem reads the same on every page:
// crawls group findings by (type, property, message).
import type { Level, ValueRule } from './rich-result-features.ts';

/** "name", "a or b", "a, b or c". */
function oneOf(names: readonly string[]): string {
  return names.length === 1 ? names[0] : `${names.slice(0, -1).join(', ')} or ${names[names.length - 1]}`;
}

/** `property` missing; `orElse`, a path that would have satisfied it. */
export function missingMessage(level: Level, property: string, orElse?: string): string {
  return orElse === undefined ? `The ${level} property ${property} is missing.` : `The ${level} property ${property} (or ${orElse}) is missing.`;
}

/** None of the alternatives is present. */
export function missingOneOfMessage(level: Level, properties: readonly string[]): string {
  return `One of ${oneOf(properties)} is ${level}.`;
}

const RULE_MESSAGES: Readonly<Record<ValueRule, (property: string) => string>> = {
  date: (property) => `The property ${property} must be an ISO 8601 date or date-time.`,
  duration: (property) => `The property ${property} must be an ISO 8601 duration.`,
  price: (property) => `The offer's ${property} must be a number, without currency sign.`,
  currency: (property) => `The property ${property} must be a currency code of three capital letters (ISO 4217).`,
  rating: (property) => `The property ${property} must be a number.`,
  count: (property) => `The property ${property} must be a whole number, 0 or more.`,
  position: (property) => `The property ${property} must be a whole number, 1 or more.`,
  url: (property) => `The property ${property} must be a URL.`,
  image: (property) => `The property ${property} must be a URL or an ImageObject with a url or contentUrl.`,
  list_item: (property) => `The property ${property} must be a URL.`,
};

export function valueRuleMessage(rule: ValueRule, property: string): string {
  return RULE_MESSAGES[rule](property);
}

export function requiredTextMessage(property: string): string {
  return `The property ${property} must be non-empty text.`;
}

export function textLengthMessage(property: string, [min, max]: readonly [number, number]): string {
  return `The property ${property} must be ${min} to ${max} characters long.`;
}

/** The entity is of another type than the table wants. */
export function entityTypeMessage(property: string, types: readonly string[]): string {
  return `The property ${property} must be ${oneOf(types.map(withArticle))}.`;
}

/** A schema.org value rule (the property's range) broken: `expected` as range-rules.ts words it, from the vocabulary alone. */
export function schemaRangeMessage(property: string, expected: string): string {
  return `The property ${property} must be of the kind schema.org expects: ${expected}.`;
}

export function retiredMessage(feature: string, date: string): string {
  return `Google retired the ${feature} rich result on ${date}; the markup stays valid schema.org.`;
}

/** "a Person", "an Organization". */
function withArticle(name: string): string {
  return `${/^[AEIOU]/.test(name) ? 'an' : 'a'} ${name}`;
}
