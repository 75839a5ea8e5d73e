import { expect, it } from 'vitest';
import { forEachDialect } from '../../../test/support/databases.ts';
import { richResultErrorFacts } from '../../analysis/rich-result-facts.ts';
import type { RichResultEntry } from '../../structured/structured-types.ts';
import { at, siteOf, type PageSpec } from './site-fixture.ts';
import { richResultErrors } from './rich-result-errors.ts';

const ONE_OF = ['Product', 'review|aggregateRating|offers', 'One of review, aggregateRating or offers is required.'] as [string, string, string];
const NO_PRICE = ['Product', 'offers.price', 'The offer\'s price must be a number, without currency sign.'] as [string, string, string];
const NO_DATE = ['Event', 'startDate', 'The required property startDate is missing.'] as [string, string, string];

const item = ([type, property, message]: [string, string, string]) => ({ type, property, message });

forEachDialect('rich_result_errors', (database) => {
  it('finds nothing when no page has a rich-result error', async () => {
    const site = await siteOf(database().db, { '/': {}, '/a': { title: 'A' } });
    expect(await richResultErrors.run(site)).toEqual({ count: 0, items: [] });
  });

  it('names each (type, property, message) once with its pages in URL order, the most widespread first, then by type and property', async () => {
    const site = await siteOf(database().db, {
      '/': {},
      '/p/2': { richResultErrors: [ONE_OF, NO_PRICE] },
      '/p/1': { richResultErrors: [NO_PRICE, ONE_OF] },
      '/event': { richResultErrors: [NO_DATE] },
      '/p/3': { richResultErrors: [ONE_OF] },
      // A triple differing only in its message is another finding.
      '/p/4': { richResultErrors: [['Product', 'offers.price', 'The offer\'s price is missing.']] },
      // Not an analysed HTML page: nothing of it is judged.
      '/file.pdf': { html: false, richResultErrors: [NO_DATE] },
    });
    expect(await richResultErrors.run(site)).toEqual({
      count: 4,
      items: [
        { ...item(ONE_OF), pages: [at('/p/1'), at('/p/2'), at('/p/3')], page_count: 3 },
        { ...item(NO_PRICE), pages: [at('/p/1'), at('/p/2')], page_count: 2 },
        { ...item(NO_DATE), pages: [at('/event')], page_count: 1 },
        { type: 'Product', property: 'offers.price', message: 'The offer\'s price is missing.', pages: [at('/p/4')], page_count: 1 },
      ],
    });
  });

  it('names the first 100 pages of an item and counts them all; lists 100 items and counts them all', async () => {
    const pages: Record<string, PageSpec> = {};
    for (let n = 0; n < 130; n++) pages[`/p/${String(n).padStart(3, '0')}`] = { richResultErrors: [ONE_OF] };
    const distinct = Array.from({ length: 120 }, (_, n) => ['Recipe', `property${String(n).padStart(3, '0')}`, 'A required property is missing.'] as [string, string, string]);
    pages['/recipes'] = { richResultErrors: distinct.slice(0, 100) };
    pages['/more-recipes'] = { richResultErrors: distinct.slice(100) };
    const { count, items } = await richResultErrors.run(await siteOf(database().db, pages));
    expect(count).toBe(121);
    expect(items).toHaveLength(100);
    const [widespread, ...rest] = items as { property: string; pages: string[]; page_count: number }[];
    expect(widespread).toMatchObject({ ...item(ONE_OF), page_count: 130 });
    expect(widespread.pages).toEqual(Array.from({ length: 100 }, (_, n) => at(`/p/${String(n).padStart(3, '0')}`)));
    // The other 99 listed are the first by property; those past them are counted only.
    expect(rest.map((listed) => listed.property)).toEqual(distinct.slice(0, 99).map(([, property]) => property));
    expect(rest.every((listed) => listed.page_count === 1)).toBe(true);
  });

  it('never counts a retired feature, whatever its entry holds', async () => {
    const entry = (feature: string, type: string, retired: string | null, errors: [string, string][]): RichResultEntry => ({
      feature,
      type,
      line: 3,
      valid: retired === null ? errors.length === 0 : null,
      retired,
      errors: errors.map(([property, message]) => ({ kind: 'missing_property', property, message, line: 4 })),
      warnings: [],
    });
    const stored = (entries: RichResultEntry[]) => richResultErrorFacts(entries).map(({ type, property, message }) => [type, property, message] as [string, string, string]);
    const site = await siteOf(database().db, {
      '/faq': { richResultErrors: stored([entry('FAQ', 'FAQPage', '2026-05-07', [['mainEntity', 'The required property mainEntity is missing.']])]) },
      '/p': { richResultErrors: stored([entry('FAQ', 'FAQPage', '2026-05-07', []), entry('Product snippets', 'Product', null, [[ONE_OF[1], ONE_OF[2]]])]) },
    });
    expect(await richResultErrors.run(site)).toEqual({ count: 1, items: [{ ...item(ONE_OF), pages: [at('/p')], page_count: 1 }] });
  });
});
