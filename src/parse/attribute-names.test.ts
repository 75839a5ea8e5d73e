import { describe, expect, it } from 'vitest';
import { Attr, attributeId, isValueRead } from './attribute-names.ts';

const id = (name: string) => attributeId(` ${name}=`, 1, name.length + 1);

describe('attributeId', () => {
  it('numbers the attributes the collector reads, in any case', () => {
    expect(id('href')).toBe(Attr.Href);
    expect(id('SRC')).toBe(Attr.Src);
    expect(id('Aria-Label')).toBe(Attr.AriaLabel);
    expect(id('http-equiv')).toBe(Attr.HttpEquiv);
    expect(id('itemscope')).toBe(Attr.Itemscope);
  });

  it('gives None to every other attribute', () => {
    for (const name of ['class', 'data-href', 'srcsets', 'aria-labelledby', 'x', '']) expect(id(name)).toBe(Attr.None);
  });

  it('gives every number to exactly one name', () => {
    const numbers = Object.values(Attr).filter((value) => value !== Attr.None);
    expect(new Set(numbers).size).toBe(numbers.length);
  });

  it('reads the values of attributes whose value is used, not of those only looked for', () => {
    expect(isValueRead(Attr.Href)).toBe(true);
    expect(isValueRead(Attr.Id)).toBe(true);
    expect(isValueRead(Attr.Itemtype)).toBe(true);
    expect(isValueRead(Attr.Style)).toBe(true);
    expect(isValueRead(Attr.Download)).toBe(false);
    expect(isValueRead(Attr.Async)).toBe(false);
  });
});
