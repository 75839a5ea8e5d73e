import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { WordSet } from './word-set.ts';

const range = (set: WordSet, text: string, mayHaveUpper = true) => set.addRange(`(${text})`, 1, text.length + 1, mayHaveUpper);

describe('WordSet', () => {
  it('keeps distinct words in the order first added', () => {
    const set = new WordSet();
    for (const word of ['b', 'a', 'b', 'c', 'a']) set.add(word);
    expect([...set]).toEqual(['b', 'a', 'c']);
    expect(set.size).toBe(3);
    expect(set.has('a')).toBe(true);
    expect(set.has('d')).toBe(false);
  });

  it('adds ranges of a string, lower-cased as toLowerCase does', () => {
    const set = new WordSet();
    range(set, 'Hello');
    range(set, 'HELLO');
    range(set, 'hello', false);
    range(set, 'ΣΟΦΟΣ'); // final sigma: "σοφος" ends in "ς"
    range(set, 'İstanbul'); // "İ" lower-cases to two code units
    expect([...set]).toEqual(['hello', 'σοφος', 'i̇stanbul']);
    expect(set.has('σοφος')).toBe(true);
  });

  it('stops adding at its maximum size but still answers for the words it has', () => {
    const set = new WordSet(2);
    for (const word of ['x', 'y', 'z', 'x']) set.add(word);
    range(set, 'W');
    expect([...set]).toEqual(['x', 'y']);
    expect(set.has('x')).toBe(true);
    expect(set.has('z')).toBe(false);
  });

  it('works as a ReadonlySet', () => {
    const set = new WordSet();
    set.add('one');
    range(set, 'Two');
    const seen: string[] = [];
    set.forEach((value, key) => seen.push(`${key}=${value}`));
    expect(seen).toEqual(['one=one', 'two=two']);
    expect([...set.keys()]).toEqual(['one', 'two']);
    expect([...set.values()]).toEqual(['one', 'two']);
    expect([...set.entries()]).toEqual([
      ['one', 'one'],
      ['two', 'two'],
    ]);
  });

  it('behaves like a Set of lower-cased words, through many collisions and resizes', () => {
    const word = fc.string({ unit: fc.constantFrom('a', 'B', 'c', 'É', 'σ', 'Σ', '日', '1'), minLength: 1, maxLength: 4 });
    fc.assert(
      fc.property(fc.array(fc.tuple(word, fc.boolean()), { maxLength: 600 }), (words) => {
        const set = new WordSet(400);
        const expected = new Set<string>();
        for (const [text, asRange] of words) {
          const lower = text.toLowerCase();
          if (asRange) range(set, text);
          else set.add(lower);
          if (expected.size < 400) expected.add(lower);
        }
        expect([...set]).toEqual([...expected]);
        for (const [text] of words) expect(set.has(text.toLowerCase())).toBe(expected.has(text.toLowerCase()));
      }),
      { numRuns: 300 },
    );
  });
});
