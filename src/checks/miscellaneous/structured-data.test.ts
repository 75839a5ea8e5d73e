import { describe, it, expect } from 'vitest';
import { makeContext } from '../../../test/support/check-context.ts';
import type { MetaTag, PageSnapshot } from '../../parse/page-snapshot.ts';
import { structuredDataCheck } from './structured-data.ts';

const og = (property: string, content: string | null): MetaTag => ({ name: null, property, httpEquiv: null, charset: null, content, inHead: true });
const run = (snapshot: Partial<PageSnapshot>) => structuredDataCheck.run(makeContext({ snapshot }));

describe('structured_data', () => {
  it('fails a page with no structured data; og metas without content do not count', () => {
    expect(run({ metas: [og('og:title', null)] })).toMatchObject({
      passed: false,
      value: { formats: [], types: [] },
      errors: { missing: ['JSON-LD, microdata, RDFa or Open Graph'] },
    });
  });

  it('passes Open Graph alone', () => {
    expect(run({ metas: [og('og:title', 'Hello')] })).toMatchObject({ passed: true, value: { formats: ['open_graph'] } });
  });

  it('lists types of every format', () => {
    const outcome = run({
      jsonLd: [{ raw: '{"@context":"https://schema.org/","@graph":[{"@type":"Article"}]}' }],
      microdataTypes: ['http://schema.org/Product', 'https://schema.org/Offer/'],
      rdfaTypes: ['schema:Person'],
    });
    expect(outcome).toMatchObject({
      passed: true,
      value: { formats: ['json-ld', 'microdata', 'rdfa'], types: ['Article', 'Product', 'Offer', 'Person'], type_count: 4 },
      errors: null,
    });
  });

  it('fails when any JSON-LD block is invalid or lacks a schema.org context, naming the block', () => {
    const outcome = run({
      jsonLd: [
        { raw: '{"@context":"https://schema.org","@type":"Organization"}' },
        { raw: '{"@type": "Event",' },
        { raw: '{"@type": "Recipe"}' },
      ],
      metas: [og('og:title', 'Hello')],
    });
    expect(outcome).toMatchObject({
      passed: false,
      value: { types: ['Organization', 'Recipe'], json_ld_blocks: 3, invalid_json_ld_blocks: 2 },
      errors: { invalid_json: [{ index: 1, error: expect.any(String) }], wrong_context: [{ index: 2, context: null }] },
    });
  });
});
