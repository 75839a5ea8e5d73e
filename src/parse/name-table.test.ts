import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { NameTable } from './name-table.ts';

const NAMES = ['a', 'p', 'h1', 'hr', 'href', 'link', 'http-equiv', 'annotation-xml', 'kbd'];
const table = new NameTable(NAMES.map((name, index) => [name, index] as const));
const byLowerCase = (text: string) => {
  const index = NAMES.indexOf(text.toLowerCase());
  return index === -1 ? undefined : index;
};
const find = (text: string) => table.find(`<${text}>`, 1, text.length + 1);

describe('NameTable', () => {
  it('finds names in any ASCII case, in place', () => {
    expect(find('href')).toBe(4);
    expect(find('HREF')).toBe(4);
    expect(find('Http-Equiv')).toBe(6);
    expect(find('H1')).toBe(2);
    expect(find('a')).toBe(0);
  });

  it('finds nothing for unknown, empty, longer or prefix names', () => {
    expect(find('class')).toBeUndefined();
    expect(find('')).toBeUndefined();
    expect(find('hrefs')).toBeUndefined();
    expect(find('hre')).toBeUndefined();
    expect(find('annotation-xml-and-more')).toBeUndefined();
  });

  it('lower-cases beyond ASCII as toLowerCase does (the Kelvin sign is a "k")', () => {
    expect(find('\u212abd')).toBe(8);
    expect(find('lin\u212a')).toBe(5);
    expect(find('hr\u00e9f')).toBeUndefined();
  });

  it('agrees with a lookup of the lower-cased slice', () => {
    const unit = fc.constantFrom('a', 'A', 'h', 'H', '1', 'r', 'R', 'e', 'f', 'p', '-', 'k', 'K', '\u212a', 'İ', 'x', 'l', 'i', 'n', 'b', 'd');
    fc.assert(
      fc.property(fc.string({ unit, maxLength: 6 }), (text) => {
        expect(find(text)).toBe(byLowerCase(text));
      }),
      { numRuns: 5000 },
    );
  });

  it('refuses names that are not lower-case', () => {
    expect(() => new NameTable([['Href', 1]])).toThrow();
  });
});
