import { describe, expect, it } from 'vitest';
import { pageTooLargeReason, sizeInWords } from './fetch-error.ts';

describe('sizeInWords', () => {
  it.each([
    [5 * 1024 * 1024, '5 MiB'],
    [2097152, '2 MiB'],
    [1.5 * 1024 * 1024, '1.5 MiB'],
    [1024 * 1024, '1 MiB'],
    [1024 * 1024 + 1, '1.0 MiB'],
    [10_000_000, '9.5 MiB'],
    [512 * 1024, '512 KiB'],
    [1024, '1 KiB'],
    [100_000, '97.7 KiB'],
  ])('%d bytes: %s', (bytes, words) => {
    expect(sizeInWords(bytes)).toBe(words);
  });
});

describe('pageTooLargeReason', () => {
  it('gives the limit in words and names the setting', () => {
    expect(pageTooLargeReason(5 * 1024 * 1024)).toBe('The page is larger than 5 MiB (PAGEGRADE_MAX_PAGE_BYTES).');
  });
});
