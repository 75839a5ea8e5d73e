// The report page's Structured data section: what is eligible, blocked and retired in a line each, every
// rich-result entry with its state, errors and warnings (path, message, line, value), the items, the
// counts and the schema.org release; nothing for a page without structured data; everything from the
// page escaped; placed under the Miscellaneous checks, also in the CLI's HTML file.
import { describe, expect, it } from 'vitest';
import { renderHtml } from '../../cli/outputs/html.ts';
import type { StructuredDataReport } from '../../structured/structured-types.ts';
import { labAnalysis, labReport } from '../../../test/support/lab-fixtures.ts';
import { reportPage } from './report.ts';
import { structuredDataSection } from './structured-data-section.ts';

type Entry = StructuredDataReport['rich_results'][number];

const entry = (overrides: Partial<Entry>): Entry => ({
  feature: 'Product snippets', type: 'Product', line: 14, valid: true, retired: null, errors: [], warnings: [], ...overrides,
});

const DATA: StructuredDataReport = {
  schema_org_version: '30.0',
  items: [
    { format: 'json-ld', type: 'Product', line: 14 },
    { format: 'microdata', type: 'BreadcrumbList', line: 40 },
    { format: 'rdfa', type: 'FAQPage', line: 60 },
  ],
  rich_results: [
    entry({ warnings: [{ property: 'offers.availability', message: 'The recommended property availability is missing.', line: 19 }] }),
    entry({
      feature: 'Merchant listings',
      valid: false,
      errors: [
        { property: 'offers.priceCurrency', message: 'The offer must say its currency.', line: 18 },
        { property: 'offers.price', message: 'The offer\'s price must be a number, without currency sign.', value: 'about ninety euros', line: 21 },
      ],
    }),
    entry({ feature: 'Breadcrumb', type: 'BreadcrumbList', line: 40 }),
    entry({
      feature: 'FAQ', type: 'FAQPage', line: 60, valid: null, retired: '2026-05-07',
      warnings: [{ property: '@type', message: 'Google retired FAQ rich results; the markup stays valid schema.org.', line: 60 }],
    }),
  ],
  errors: 2,
  warnings: 2,
  validation_errors: 0,
};

const sectionOf = (data: StructuredDataReport | null, linkValidationCheck = false) => String(structuredDataSection(data, { linkValidationCheck }));
/** What a person reads: tags dropped, white space folded. */
const text = (markup: string) => markup.replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ').replace(/ ([,.:)])/g, '$1').replace(/\( /g, '(').trim();

describe('the structured data section', () => {
  const section = sectionOf(DATA);

  it('is nothing at all for a page without structured data', () => {
    expect(structuredDataSection(null)).toBe('');
    expect(structuredDataSection(undefined)).toBe('');
  });

  it('says first what is eligible, what is blocked and by what, and what Google retired', () => {
    const summary = text(section.slice(section.indexOf('<ul class="structured-summary">'), section.indexOf('</ul>')));
    expect(summary).toContain('Eligible for: Product snippets, Breadcrumb');
    expect(summary).toContain('Blocked: Merchant listings — offers.priceCurrency: The offer must say its currency. line 18 and 1 more error');
    expect(summary).toContain('Retired by Google: FAQ (7 May 2026)');
    expect(section).toContain('<time datetime="2026-05-07">7 May 2026</time>');
  });

  it('counts errors, warnings and schema.org errors, and names the schema.org release', () => {
    expect(text(section)).toContain('2 rich-result errors · 2 warnings · 0 schema.org errors · checked against schema.org 30.0');
    expect(text(section)).toContain('Types, properties and values are valid schema.org 30.0.');
  });

  it('marks each entry valid, invalid or retired, with its item\'s type and line', () => {
    const found = [...section.matchAll(/<li class="rich-result rich-result--(\w+)">[\s\S]*?<h4 class="rich-result-title">([\s\S]*?)<\/h4>/g)];
    expect(found.map((match) => [match[1], text(match[2])])).toEqual([
      ['valid', 'Product snippets Product line 14'],
      ['invalid', 'Merchant listings Product line 14'],
      ['valid', 'Breadcrumb BreadcrumbList line 40'],
      ['retired', 'FAQ FAQPage line 60'],
    ]);
    expect(section.match(/status--passed"><span aria-hidden="true">✓<\/span> Valid/g)).toHaveLength(2);
    expect(section.match(/status--failed"><span aria-hidden="true">✗<\/span> Invalid/g)).toHaveLength(1);
    expect(section).toMatch(/rich-result--retired">[\s\S]*?Retired<\/span>[\s\S]*?Google retired this rich result on <time datetime="2026-05-07">7 May 2026<\/time>\./);
  });

  it('lists an invalid entry\'s errors open, each with its path, message, line and the offending value', () => {
    const merchant = section.slice(section.indexOf('rich-result--invalid'), section.indexOf('rich-result--valid', section.indexOf('rich-result--invalid')));
    expect(text(merchant)).toContain('Errors (2)');
    expect(text(merchant)).toContain('offers.priceCurrency: The offer must say its currency. line 18');
    expect(text(merchant)).toContain('offers.price: The offer&#39;s price must be a number, without currency sign. line 21 Value: about ninety euros');
    expect(merchant).not.toContain('<details');
  });

  it('folds warnings behind their count, a summary that says whose they are', () => {
    expect(section).toContain('<details class="rich-result-warnings"><summary>1 warning<span class="visually-hidden">: Product snippets, line 14</span></summary>');
    expect(text(section)).toContain('offers.availability: The recommended property availability is missing. line 19');
  });

  it('lists the items with their type, format and line', () => {
    const rows = [...section.matchAll(/<tr>\s*<td data-label="Type">([\s\S]*?)<\/tr>/g)].map((row) => text(row[0]));
    expect(rows).toEqual(['Product JSON-LD 14', 'BreadcrumbList Microdata 40', 'FAQPage RDFa Lite 60']);
    expect(text(section)).toContain('3 items found (JSON-LD, Microdata, RDFa Lite).');
    expect(section).not.toContain('class="structured-items"');
  });

  it('folds a long list of items behind its count', () => {
    const items = Array.from({ length: 12 }, (_, index) => ({ format: 'json-ld' as const, type: 'Person', line: index + 1 }));
    const long = sectionOf({ ...DATA, items });
    expect(long).toContain('<details class="structured-items"><summary>12 items found (JSON-LD)</summary>');
  });

  it('escapes every string that came from the page: types, values, messages, paths', () => {
    const hostile = sectionOf({
      ...DATA,
      items: [{ format: 'json-ld', type: '<img src=x onerror="alert(1)">', line: 3 }],
      rich_results: [entry({
        type: '<img src=x onerror="alert(1)">',
        valid: false,
        errors: [{ property: 'offers.<b>price</b>', message: 'Bad <script>alert(2)</script>', value: '"><script>alert(3)</script>', line: 4 }],
      })],
    });
    expect(hostile).not.toMatch(/<img|<script|<b>/);
    expect(hostile).toContain('<code>&lt;img src=x onerror=&quot;alert(1)&quot;&gt;</code>');
    expect(hostile).toContain('Bad &lt;script&gt;alert(2)&lt;/script&gt;');
    expect(hostile).toContain('<code>&quot;&gt;&lt;script&gt;alert(3)&lt;/script&gt;</code>');
    expect(hostile).toContain('<code>offers.&lt;b&gt;price&lt;/b&gt;</code>');
  });

  it('says how many schema.org errors there are, linking the validation check when the report has it', () => {
    const invalid = { ...DATA, validation_errors: 3 };
    expect(text(sectionOf(invalid))).toContain('3 schema.org errors (syntax, unknown types or properties, values of the wrong kind).');
    expect(sectionOf(invalid)).not.toContain('href="#check-structured_data_valid"');
    expect(sectionOf(invalid, true)).toContain('see <a href="#check-structured_data_valid">the schema.org validation check</a>.');
  });

  it('says so when no item could be read, or none is of a rich-result type', () => {
    const unreadable = sectionOf({ ...DATA, items: [], rich_results: [], errors: 0, warnings: 0, validation_errors: 1 });
    expect(text(unreadable)).toContain('No structured data item could be read from the page.');
    expect(unreadable).not.toContain('<h3>Items</h3>');
    expect(unreadable).not.toContain('Google rich results');
    const plain = sectionOf({ ...DATA, items: [{ format: 'json-ld', type: 'Person', line: 2 }], rich_results: [], errors: 0, warnings: 0 });
    expect(text(plain)).toContain('No item is of a Google rich-result type');
  });

  it('says when the findings listed are fewer than those counted', () => {
    expect(sectionOf(DATA)).not.toContain('Only part of the findings is listed');
    expect(text(sectionOf({ ...DATA, errors: 80 }))).toContain('Only part of the findings is listed (at most 200 entries, and 50 errors and 50 warnings an entry)');
  });
});

describe('on the report page', () => {
  const page = (structured_data: StructuredDataReport | null) => reportPage({ report: { ...labReport(), structured_data }, asOwner: false, signedIn: false }).toString();

  it('comes right under the Miscellaneous checks, before the next category and the facts of the fetch', () => {
    const body = page(DATA);
    const at = body.indexOf('<section class="structured-data"');
    const miscellaneous = body.indexOf('<section class="category" id="category-miscellaneous"');
    expect(miscellaneous).toBeGreaterThan(-1);
    expect(at).toBeGreaterThan(miscellaneous);
    expect(body.indexOf('<section class="category"', miscellaneous + 1)).toBeGreaterThan(at);
    expect(body.indexOf('<section class="page-facts"')).toBeGreaterThan(at);
  });

  it('is not there when the report has no structured data', () => {
    expect(page(null)).not.toContain('structured-data');
  });

  it('is in the CLI\'s HTML file when the analysis has structured data', () => {
    const file = renderHtml([{ url: 'https://example.com/', analysis: labAnalysis({ structuredData: DATA }) }]);
    expect(file).toContain('<h2 id="structured-data-heading">Structured data</h2>');
    expect(file).toContain('Eligible for:</strong> Product snippets, Breadcrumb');
    expect(renderHtml([{ url: 'https://example.com/', analysis: labAnalysis() }])).not.toContain('structured-data-heading');
  });
});
