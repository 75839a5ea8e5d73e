import { DomUtils, parseDocument } from 'htmlparser2';
import { describe, expect, it } from 'vitest';
import { structuredAnalysis } from '../../../test/support/cli-structured-results.ts';
import { renderJunit } from './junit.ts';

const failureOf = (xml: string, checkId: string): string => {
  const cases = DomUtils.findAll((element) => element.name === 'testcase', parseDocument(xml, { xmlMode: true }).children);
  const testCase = cases.find((element) => element.attribs.name.startsWith(`${checkId}:`));
  const failure = testCase && DomUtils.findOne((element) => element.name === 'failure', testCase.children);
  return failure ? DomUtils.textContent(failure) : '';
};

describe('JUnit failures of the structured-data checks', () => {
  const xml = renderJunit([{ url: 'https://shop.example/p/1', analysis: structuredAnalysis() }]);

  it('rich_results lists each error on its line: where, feature, type, property, message and the value', () => {
    expect(failureOf(xml, 'rich_results').split('\n').slice(0, 5)).toEqual([
      'missing property:',
      '  - line 14: Merchant listings (Product), image: The required property image is missing.',
      'invalid value:',
      `  - line 21: Product snippets (Product), offers.price: The offer's price must be a number, without currency sign. (value: "about ninety euros")`,
      `  - line 27: Product snippets (Product), offers.price: The offer's price must be a number, without currency sign. (value: "free")`,
    ]);
  });

  it('structured_data_valid a sentence per error, with its line', () => {
    const lines = failureOf(xml, 'structured_data_valid').split('\n');
    expect(lines).toContain('  - line 9: A JSON-LD node has neither @type nor @graph.');
    expect(lines).toContain('  - line 23: Offer (JSON-LD), offers.priceValidUntil: expected Date or DateTime (ISO 8601). (value: "next week")');
  });

  it('other checks keep their "key: value" items', () => {
    expect(failureOf(xml, 'title').split('\n').slice(0, 2)).toEqual(['missing:', '  - x']);
  });
});
