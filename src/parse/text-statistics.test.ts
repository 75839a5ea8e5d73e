import { describe, expect, it } from 'vitest';
import { MAX_DISTINCT_WORDS, TextStatistics } from './text-statistics.ts';

function statsOf(...pieces: string[]): TextStatistics {
  const stats = new TextStatistics();
  for (const piece of pieces) stats.add(piece, 0, piece.length);
  stats.finish();
  return stats;
}

describe('TextStatistics', () => {
  it('counts runs of letters and digits as words, in any script', () => {
    const stats = statsOf("Hello, world! It's 2024 — ça va? Привет мир");
    expect(stats.wordCount).toBe(9); // hello world it s 2024 ça va привет мир
    expect([...stats.words]).toEqual(['hello', 'world', 'it', 's', '2024', 'ça', 'va', 'привет', 'мир']);
  });

  it('counts each CJK ideograph and kana as one word', () => {
    const stats = statsOf('日本語のテキストです');
    expect(stats.wordCount).toBe(10);
    expect(stats.words.has('日')).toBe(true);
    expect(statsOf('Hello 世界 world').wordCount).toBe(4);
  });

  it('counts characters with each whitespace run as one and no leading or trailing space', () => {
    expect(statsOf('  a  b\n\n\tc  ').charCount).toBe(5);
    expect(statsOf('日本 語').charCount).toBe(4);
  });

  it('joins a word split across pieces (text around a character reference)', () => {
    const stats = statsOf('caf', 'é', ' au lait');
    expect(stats.wordCount).toBe(3);
    expect(stats.words.has('café')).toBe(true);
  });

  it('takes a range of the source string', () => {
    const stats = new TextStatistics();
    stats.add('<p>one two</p>', 3, 10);
    stats.finish();
    expect(stats.wordCount).toBe(2);
    expect(stats.charCount).toBe(7);
  });

  it('separates words at a block break but not between pieces', () => {
    const stats = new TextStatistics();
    stats.add('foo', 0, 3);
    stats.addBreak();
    stats.add('bar', 0, 3);
    stats.finish();
    expect(stats.wordCount).toBe(2);
    expect(stats.charCount).toBe(7); // the break counts as one space
  });

  it('lower-cases words, including non-ASCII upper-case letters', () => {
    expect([...statsOf('Straße ÉCOLE École').words]).toEqual(['straße', 'école']);
  });

  it('counts astral letters as word characters and emoji as neither words nor spaces', () => {
    const stats = statsOf('𝐀𝐁 ok 😀x');
    expect(stats.wordCount).toBe(3);
    expect(stats.charCount).toBe(11);
  });

  it(`keeps at most ${MAX_DISTINCT_WORDS} distinct words but counts them all`, () => {
    const text = Array.from({ length: MAX_DISTINCT_WORDS + 500 }, (_, i) => `w${i}`).join(' ');
    const stats = statsOf(text);
    expect(stats.wordCount).toBe(MAX_DISTINCT_WORDS + 500);
    expect(stats.words.size).toBe(MAX_DISTINCT_WORDS);
  });

  it('collects e-mail addresses from the text it is given', () => {
    expect([...statsOf('mail ann@example.com or ', 'bob@example.org').emails.values()]).toEqual([
      'ann@example.com',
      'bob@example.org',
    ]);
  });
});
