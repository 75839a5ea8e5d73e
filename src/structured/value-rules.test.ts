import { describe, expect, it } from 'vitest';
import type { StructuredValue } from './structured-types.ts';
import {
  isBooleanValue,
  isCount,
  isCurrencyCode,
  isIsoDate,
  isIsoDuration,
  isNumber,
  isPresentValue,
  isPrice,
  isUrlText,
  isWholeNumber,
  writtenValue,
} from './value-rules.ts';

const text = (value: string): StructuredValue => ({ kind: 'text', text: value, line: 1 });
const number = (value: number): StructuredValue => ({ kind: 'number', number: value, written: String(value), line: 1 });

describe('value rules', () => {
  it('reads ISO 8601 dates and date-times, times only when asked', () => {
    for (const good of ['2026', '2026-05', '2026-05-12', '2026-05-12T09:30', '2026-05-12T09:30:15.25Z', '2026-05-12T09:30+02:00', '2026-05-12T09:30:00-0500']) {
      expect(isIsoDate(good), good).toBe(true);
    }
    for (const bad of ['12/05/2026', 'May 12, 2026', '2026-13-01', '2026-05-32', '2026-05-12 09:30', '2026-05-12T25:00', '20260512', '']) {
      expect(isIsoDate(bad), bad).toBe(false);
    }
    expect(isIsoDate('09:30:00Z')).toBe(false);
    expect(isIsoDate('09:30:00Z', true)).toBe(true);
  });

  it('reads ISO 8601 durations with at least one component', () => {
    for (const good of ['P1DT2H', 'PT30M', 'P2W', 'P1Y2M3D', 'PT1.5H']) expect(isIsoDuration(good), good).toBe(true);
    for (const bad of ['P', 'PT', 'P1DT', '30 minutes', 'PT30', '1H']) expect(isIsoDuration(bad), bad).toBe(false);
  });

  it('reads numbers, whole numbers and counts', () => {
    expect([number(3), text('29.99'), text('-3'), text('1e3')].every(isNumber)).toBe(true);
    expect([text('29,99'), text('€29'), text('ten'), { kind: 'boolean', boolean: true, line: 1 } as StructuredValue].some(isNumber)).toBe(false);
    expect(isWholeNumber(text('3'))).toBe(true);
    expect(isWholeNumber(number(2.5))).toBe(false);
    expect(isCount(text('0'), 0)).toBe(true);
    expect(isCount(text('0'), 1)).toBe(false);
    expect(isCount(text('-1'), 0)).toBe(false);
    expect(isCount(number(4), 1)).toBe(true);
  });

  it('reads booleans in their accepted forms', () => {
    for (const good of ['true', 'FALSE', 'https://schema.org/True', 'http://schema.org/False', 'schema:True']) expect(isBooleanValue(text(good)), good).toBe(true);
    expect(isBooleanValue(text('yes'))).toBe(false);
    expect(isBooleanValue(number(1))).toBe(false);
  });

  it('reads URLs, relative ones against the base', () => {
    expect(isUrlText('https://example.com/a.png', 'https://example.com/')).toBe(true);
    expect(isUrlText('/a.png', 'https://example.com/')).toBe(true);
    expect(isUrlText('a picture.png', 'https://example.com/')).toBe(false);
    expect(isUrlText('http://[', 'https://example.com/')).toBe(false);
    expect(isUrlText('', 'https://example.com/')).toBe(false);
  });

  it('reads prices and currency codes as Google does', () => {
    expect([number(0), text('89.00'), text('89')].every(isPrice)).toBe(true);
    expect([number(-1), text('€89'), text('89,00'), text('about ninety euros'), text('1 000')].some(isPrice)).toBe(false);
    expect(isCurrencyCode(text('EUR'))).toBe(true);
    expect(isCurrencyCode(text('eur'))).toBe(false);
    expect(isCurrencyCode(text('€'))).toBe(false);
  });

  it('tells a value that is there from null, a blank string and {}', () => {
    const node = (types: string[], id: string | null = null): StructuredValue => ({
      kind: 'node', line: 1, node: { format: 'json-ld', types: types.map((type) => ({ written: type, schema: type })), id, reference: id !== null, line: 1, properties: [] },
    });
    expect([text('x'), number(0), { kind: 'boolean', boolean: false, line: 1 } as const, node(['Offer']), node([], '#offer')].every(isPresentValue)).toBe(true);
    expect([{ kind: 'null', line: 1 } as const, text(''), text(' \n '), node([])].some(isPresentValue)).toBe(false);
  });

  it('shows a value as written, cut at 100 characters', () => {
    expect(writtenValue(text('x'.repeat(150)))).toHaveLength(100);
    expect(writtenValue(number(1e3))).toBe('1000');
  });
});
