import { describe, expect, it } from 'vitest';
import { parseLinkHeader } from './link-header.ts';

describe('parseLinkHeader', () => {
  it('reads each link of a joined header with its rel tokens and parameters', () => {
    expect(parseLinkHeader('<https://a/>; rel="canonical", <https://a/de>; rel=alternate; hreflang=de')).toEqual([
      { href: 'https://a/', rel: ['canonical'], params: { rel: 'canonical' } },
      { href: 'https://a/de', rel: ['alternate'], params: { rel: 'alternate', hreflang: 'de' } },
    ]);
  });

  it('lower-cases rel tokens and parameter names, unquotes values and keeps commas inside quotes', () => {
    expect(parseLinkHeader('<b.css>; REL="Preload StyleSheet"; Title="a, \\"b\\""')).toEqual([
      { href: 'b.css', rel: ['preload', 'stylesheet'], params: { rel: 'Preload StyleSheet', title: 'a, "b"' } },
    ]);
  });

  it('keeps only the first occurrence of a parameter (RFC 8288)', () => {
    expect(parseLinkHeader('<x>; rel=next; rel=prev')[0].rel).toEqual(['next']);
  });

  it('skips what is not a link', () => {
    expect(parseLinkHeader('')).toEqual([]);
    expect(parseLinkHeader('rel=canonical')).toEqual([]);
    expect(parseLinkHeader('<unclosed; rel=canonical')).toEqual([]);
  });
});
