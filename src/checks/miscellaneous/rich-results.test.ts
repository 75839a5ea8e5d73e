import { describe, expect, it } from 'vitest';
import { makeContext } from '../../../test/support/check-context.ts';
import type { StructuredExtraction } from '../../structured/structured-types.ts';
import { at, extraction, node, type NodeSpec } from '../../structured/test-nodes.ts';
import { richResultsCheck } from './rich-results.ts';

const run = (structured: StructuredExtraction) => richResultsCheck.run(makeContext({ snapshot: { structured } }));
const runItems = (...items: NodeSpec[]) => run(extraction(...items));

const goodProduct = () => node('Product', { name: 'Shoe', image: '/s.jpg', offers: node('Offer', { price: '89.00', priceCurrency: 'EUR' }) });

describe('rich_results', () => {
  it('does not apply to a page without structured data', () => {
    expect(run({ present: false, formats: [], items: [], problems: [], byId: new Map() })).toEqual({ passed: null, reason: 'no structured data' });
  });

  it('does not apply when no item is of a Google rich-result type (an unparsable block alone included)', () => {
    expect(runItems(node('Person', { name: 'Ann' }), node('WebSite', { name: 'Site' }))).toEqual({ passed: null, reason: 'no item of a Google rich-result type' });
    const unparsable: StructuredExtraction = { present: true, formats: ['json-ld'], items: [], problems: [{ kind: 'invalid_json', line: 3, message: 'x' }], byId: new Map() };
    expect(run(unparsable)).toMatchObject({ passed: null, reason: 'no item of a Google rich-result type' });
  });

  it('does not apply when only retired features are found, naming them', () => {
    expect(runItems(node('HowTo', { name: 'x' }), node('FAQPage'), node('FAQPage'))).toEqual({
      passed: null,
      reason: 'only retired rich-result types (FAQ, HowTo)',
      value: { schema_org_version: '30.0', eligible: [], ineligible: [], retired: ['FAQ', 'HowTo'], errors: 0, warnings: 3 },
    });
  });

  it('passes when no entry of a current feature has an error, warnings and retired features notwithstanding', () => {
    // Warnings: 4 of Product snippets, 10 of Merchant listings, the FAQ's one.
    expect(runItems(goodProduct(), node('FAQPage'))).toEqual({
      passed: true,
      value: { schema_org_version: '30.0', eligible: ['Merchant listings', 'Product snippets'], ineligible: [], retired: ['FAQ'], errors: 0, warnings: 15 },
      errors: null,
    });
  });

  it('fails with the errors by kind, each naming feature, type, property, message and line (and the value when wrong)', () => {
    const broken = node(['Product', 'Car'], { name: 'Shoe', offers: node('Offer', { price: at(9, '€89') }, { line: 8 }) }, { line: 4 });
    const outcome = runItems(broken, goodProduct(), node('Organization', { name: 'Acme' }));
    expect(outcome).toMatchObject({
      passed: false,
      value: { schema_org_version: '30.0', eligible: ['Merchant listings', 'Organization', 'Product snippets'], ineligible: ['Merchant listings', 'Product snippets'], retired: [], errors: 4 },
      errors: {
        missing_property: [
          { feature: 'Merchant listings', type: 'Product Car', property: 'image', message: 'The required property image is missing.', line: 4 },
          { feature: 'Merchant listings', type: 'Product Car', property: 'offers.priceCurrency', message: 'The required property priceCurrency (or priceSpecification.priceCurrency) is missing.', line: 8 },
        ],
        invalid_value: [
          { feature: 'Product snippets', type: 'Product Car', property: 'offers.price', message: 'The offer\'s price must be a number, without currency sign.', line: 9, value: '€89' },
          { feature: 'Merchant listings', type: 'Product Car', property: 'offers.price', message: 'The offer\'s price must be a number, without currency sign.', line: 9, value: '€89' },
        ],
      },
    });
    const errors = (outcome as { errors: Record<string, Record<string, unknown>[]> }).errors;
    expect(Object.keys(errors)).toEqual(['missing_property', 'invalid_value']);
    expect(errors.missing_property[0]).not.toHaveProperty('value');
  });

  it('counts every error and warning but lists at most 50 per kind', () => {
    const products = Array.from({ length: 30 }, () => node('Product', { offers: node('Offer', { price: 'free' }) }));
    const outcome = runItems(...products) as { passed: boolean; value: { errors: number }; errors: Record<string, unknown[]> };
    expect(outcome.passed).toBe(false);
    // Each product: name missing twice (two features), image and priceCurrency missing, the price wrong twice.
    expect(outcome.value.errors).toBe(30 * 6);
    expect(outcome.errors.missing_property).toHaveLength(50);
    expect(outcome.errors.invalid_value).toHaveLength(50);
  });

  it('has a label for every field of its value, kind of error and field of their items', () => {
    for (const key of ['eligible', 'ineligible', 'retired', 'errors', 'warnings', 'missing_property', 'invalid_value', 'feature', 'type', 'property', 'message', 'value']) {
      expect(richResultsCheck.labels?.[key], key).toBeTruthy();
    }
    expect(richResultsCheck).toMatchObject({ id: 'rich_results', category: 'miscellaneous', importance: 'medium' });
  });
});
