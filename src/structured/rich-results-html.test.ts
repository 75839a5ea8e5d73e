// Rich results judged on real HTML, through the parse step's extraction, in each format.
import { describe, expect, it } from 'vitest';
import { PageText } from '../fetch/page-text.ts';
import { parsePage } from '../parse/parse-page.ts';
import { judgeRichResults } from './rich-results.ts';
import { schemaOrg } from './vocabulary.ts';

const URL = 'https://example.com/shop/shoe';
const judgeHtml = (html: string) => {
  const snapshot = parsePage(PageText.of(html), URL);
  return judgeRichResults(snapshot.structured, schemaOrg, URL);
};
const findings = (entry: { errors: { property: string; line: number }[] }) => entry.errors.map(({ property, line }) => [property, line]);

describe('rich results of real pages', () => {
  it('JSON-LD: locates a wrong price on its key\'s line and a missing property on its object\'s `{`', () => {
    const entries = judgeHtml(`<!DOCTYPE html>
<html><head>
<script type="application/ld+json">
{
  "@context": "https://schema.org",
  "@type": "Product",
  "name": "Trail shoe",
  "image": "/shoe.jpg",
  "offers": {
    "@type": "Offer",
    "price": "€89"
  }
}
</script>
</head><body></body></html>`);
    expect(entries.map(({ feature, type, line, valid }) => ({ feature, type, line, valid }))).toEqual([
      { feature: 'Product snippets', type: 'Product', line: 4, valid: false },
      { feature: 'Merchant listings', type: 'Product', line: 4, valid: false },
    ]);
    expect(entries[1].errors).toEqual([
      { kind: 'invalid_value', property: 'offers.price', message: 'The offer\'s price must be a number, without currency sign.', value: '€89', line: 11 },
      { kind: 'missing_property', property: 'offers.priceCurrency', message: 'The required property priceCurrency (or priceSpecification.priceCurrency) is missing.', line: 9 },
    ]);
  });

  it('JSON-LD: follows @id references across a @graph and across blocks', () => {
    const entries = judgeHtml(`<!DOCTYPE html><html><head>
<script type="application/ld+json">
{"@context": "https://schema.org", "@graph": [
  {"@type": "DiscussionForumPosting", "author": {"@id": "#ann"}, "datePublished": "2026-01-01", "text": "Hi"},
  {"@type": "QAPage", "mainEntity": {"@id": "#q"}}
]}
</script>
<script type="application/ld+json">
[{"@context": "https://schema.org", "@type": "Person", "@id": "#ann", "name": "Ann"},
 {"@context": "https://schema.org", "@type": "Question", "@id": "#q",
  "name": "How?", "answerCount": 1}]
</script>
</head><body></body></html>`);
    const feature = (name: string) => entries.find((entry) => entry.feature === name)!;
    expect(feature('Discussion forum')).toMatchObject({ valid: true, errors: [] });
    expect(findings(feature('Q&A'))).toEqual([['mainEntity.acceptedAnswer|mainEntity.suggestedAnswer', 10]]);
  });

  it('microdata: judges a breadcrumb, a missing property on its itemscope element\'s line', () => {
    const entries = judgeHtml(`<!DOCTYPE html><html><body>
<ol itemscope itemtype="https://schema.org/BreadcrumbList">
  <li itemprop="itemListElement" itemscope itemtype="https://schema.org/ListItem">
    <a itemprop="item" href="/books"><span itemprop="name">Books</span></a>
    <meta itemprop="position" content="1">
  </li>
  <li itemprop="itemListElement" itemscope
      itemtype="https://schema.org/ListItem">
    <span itemprop="name">Fiction</span>
    <meta itemprop="position" content="two">
  </li>
  <li itemprop="itemListElement" itemscope itemtype="https://schema.org/ListItem">
    <span itemprop="name">Award winners</span>
    <meta itemprop="position" content="3">
  </li>
</ol>
</body></html>`);
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ feature: 'Breadcrumb', type: 'BreadcrumbList', line: 2, valid: false });
    expect(entries[0].errors).toEqual([
      { kind: 'invalid_value', property: 'itemListElement.position', message: 'The property position must be a whole number, 1 or more.', value: 'two', line: 10 },
      { kind: 'missing_property', property: 'itemListElement.item', message: 'The required property item is missing.', line: 7 },
    ]);
  });

  it('RDFa: judges an event, its location a Place without address', () => {
    const entries = judgeHtml(`<!DOCTYPE html><html><body>
<div vocab="https://schema.org/" typeof="MusicEvent">
  <h1 property="name">Jazz night</h1>
  <time property="startDate" datetime="2026-07-21T19:00">July 21</time>
  <div property="location" typeof="Place">
    <span property="name">The Hall</span>
  </div>
</div>
<div vocab="https://schema.org/" typeof="FAQPage"><p>Old markup</p></div>
</body></html>`);
    expect(entries.map(({ feature, valid, retired }) => [feature, valid, retired])).toEqual([['Event', false, null], ['FAQ', null, '2026-05-07']]);
    expect(findings(entries[0])).toEqual([['location.address', 5]]);
  });
});
