// Whether one present value of a table's property is right (docs/structured-data.md, the value rules
// of the rich-result features, on top of the schema.org ones): the message of the first rule it
// breaks, or null.
import { entityTypeMessage, requiredTextMessage, schemaRangeMessage, textLengthMessage, valueRuleMessage } from './rich-result-messages.ts';
import { REQUIRED_TEXT, VALUE_RULES, type FeatureRow, type ValueRule } from './rich-result-features.ts';
import { presentValues, resolved, schemaTypes } from './rich-result-entities.ts';
import { rangeRule, type RangeRule } from './range-rules.ts';
import type { StructuredExtraction, StructuredNode, StructuredValue, Vocabulary } from './structured-types.ts';
import { isCount, isCurrencyCode, isIsoDate, isIsoDuration, isNumber, isPrice, isUrlText } from './value-rules.ts';

/** What judging values of one page needs; the schema.org range rules are built once per property. */
export class ValueJudge {
  private readonly ranges = new Map<string, RangeRule>();

  constructor(
    readonly extraction: StructuredExtraction,
    readonly vocabulary: Vocabulary,
    readonly pageUrl: string,
  ) {}

  /** `property` is the last name of the row's path (or of its alternative) that holds the value. */
  problem(row: FeatureRow, property: string, value: StructuredValue): string | null {
    const node = value.kind === 'node' ? resolved(value.node, this.extraction.byId) : null;
    if (row.entityTypes !== undefined && node !== null && !this.isOfType(node, row.entityTypes)) {
      return entityTypeMessage(property, row.entityTypes);
    }
    const rule = VALUE_RULES[property];
    if (rule !== undefined) return this.follows(rule, property, value, node) ? null : valueRuleMessage(rule, property);
    if (row.level === 'required' && REQUIRED_TEXT.has(property) && value.kind !== 'text') return requiredTextMessage(property);
    if (row.length !== undefined && value.kind === 'text') {
      const characters = [...value.text.trim()].length;
      if (characters < row.length[0] || characters > row.length[1]) return textLengthMessage(property, row.length);
    }
    const expected = this.rangeOf(property).judge(value);
    return expected === null ? null : schemaRangeMessage(property, expected);
  }

  private follows(rule: ValueRule, property: string, value: StructuredValue, node: StructuredNode | null): boolean {
    const text = value.kind === 'text' ? value.text.trim() : null;
    switch (rule) {
      case 'date':
        return text !== null && isIsoDate(text);
      case 'duration':
        return text !== null && isIsoDuration(text);
      case 'price':
        return isPrice(value);
      case 'currency':
        return isCurrencyCode(value);
      case 'rating':
        return isNumber(value);
      case 'count':
        return isCount(value, 0);
      case 'position':
        return isCount(value, 1);
      case 'url':
        // An entity is right only where schema.org's range has a class for it (a license may be a CreativeWork).
        if (node !== null) return this.rangeOf(property).judge(value) === null;
        return text !== null && isUrlText(text, this.pageUrl);
      case 'image':
        if (node !== null) return this.isImageObject(node);
        return text !== null && isUrlText(text, this.pageUrl);
      case 'list_item':
        return node !== null || (text !== null && isUrlText(text, this.pageUrl));
    }
  }

  /** An ImageObject (or an untyped entity) with a url or contentUrl that is a URL. */
  private isImageObject(node: StructuredNode): boolean {
    const types = schemaTypes(node);
    if (types.length > 0 && !this.isOfType(node, ['ImageObject'])) return false;
    return ['url', 'contentUrl'].some((name) =>
      presentValues(node, name).some((value) => value.kind === 'text' && isUrlText(value.text, this.pageUrl)),
    );
  }

  /** A node with no schema.org type passes: it takes the type the table wants. */
  isOfType(node: StructuredNode, types: readonly string[]): boolean {
    const own = schemaTypes(node);
    return own.length === 0 || own.some((type) => types.some((wanted) => type === wanted || this.vocabulary.isSubclassOf(type, wanted)));
  }

  private rangeOf(property: string): RangeRule {
    let rule = this.ranges.get(property);
    if (rule === undefined) this.ranges.set(property, (rule = rangeRule(property, this.vocabulary, this.extraction, this.pageUrl)));
    return rule;
  }
}
