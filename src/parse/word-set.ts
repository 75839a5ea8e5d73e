// The distinct lower-cased words of a page's text, added straight from ranges of the document.
// A page repeats most of its words, and a JavaScript Set needs each one as a fresh string (a slice,
// often lower-cased) before it can tell it has seen it: that was the costliest part of reading the
// text. This table hashes and compares the characters in place, and keeps each distinct word as a
// range of the string it came from (numbers in typed arrays) rather than as a string of its own: a
// large page has tens of thousands of distinct words, and as strings they were that many objects for
// the garbage collector to copy while the page was analysed. A word becomes a string only when it is
// read back (iteration). To readers it is a ReadonlySet<string> in insertion order.

import { lowerAscii } from './name-table.ts';

const EMPTY = 0;
const INITIAL_SLOTS = 512;
/** Numbers kept per word in `ranges`: start, end, lower-case flag, hash, source. */
const STRIDE = 5;
const START = 0;
const END = 1;
const LOWER = 2;
const HASH = 3;
const SOURCE = 4;

/** The hash of a word: 32-bit FNV-1a over its UTF-16 code units, from WORD_HASH_SEED. */
export const WORD_HASH_SEED = 0x811c9dc5 | 0;

/** `hash` continued with code unit `c`. */
export function mixWordHash(hash: number, c: number): number {
  return Math.imul(hash ^ c, 0x01000193);
}

function hashOf(word: string): number {
  let hash = WORD_HASH_SEED;
  for (let i = 0; i < word.length; i++) hash = mixWordHash(hash, word.charCodeAt(i));
  return hash;
}

export class WordSet implements ReadonlySet<string> {
  private count = 0;
  // Word i is sources[s].slice(start, end), with 'A'-'Z' lower-cased when its lower-case flag is 1;
  // start, end, flag, hash and s are ranges[i * STRIDE + START ... SOURCE]. Most words come from
  // one source, the document, which `sources` then holds once.
  private readonly sources: string[] = [];
  private ranges = new Int32Array((INITIAL_SLOTS / 2) * STRIDE);
  /** Open addressing, linear probing: 1 + word index, or EMPTY. At most half full. */
  private slots = new Int32Array(INITIAL_SLOTS);

  /** `maxSize`: words beyond this many distinct ones are not added (a bound on memory for huge pages). */
  constructor(private readonly maxSize = Infinity) {}

  get size(): number {
    return this.count;
  }

  /**
   * Adds the word `source.slice(start, end)`, lower-cased when `mayHaveUpper` (else it must already be
   * lower-case). Lower-cases as `toLowerCase` does.
   */
  addRange(source: string, start: number, end: number, mayHaveUpper: boolean): void {
    let hash = WORD_HASH_SEED;
    if (mayHaveUpper) {
      for (let i = start; i < end; i++) {
        const c = source.charCodeAt(i);
        // beyond ASCII, lower-casing may depend on context or change the length (final sigma, "İ")
        if (c >= 0x80) return this.add(source.slice(start, end).toLowerCase());
        hash = mixWordHash(hash, lowerAscii(c));
      }
    } else {
      for (let i = start; i < end; i++) hash = mixWordHash(hash, source.charCodeAt(i));
    }
    this.addHashed(source, start, end, hash, mayHaveUpper);
  }

  /**
   * `addRange` for a caller that hashed the word as it read it: `hash` is the hash of the word to add,
   * which is `source.slice(start, end)` with, when `lowerAscii`, 'A'-'Z' lower-cased (the only
   * characters in it that lower-case to something else).
   */
  addHashed(source: string, start: number, end: number, hash: number, lowerAscii: boolean): void {
    const mask = this.slots.length - 1;
    for (let slot = hash & mask; ; slot = (slot + 1) & mask) {
      const entry = this.slots[slot];
      if (entry === EMPTY) {
        if (this.count < this.maxSize) this.insert(slot, source, start, end, lowerAscii ? 1 : 0, hash);
        return;
      }
      const index = entry - 1;
      if (this.ranges[index * STRIDE + HASH] === hash && this.sameRange(index, source, start, end, lowerAscii)) return;
    }
  }

  /** Adds `word` as it is. */
  add(word: string): void {
    this.addHashed(word, 0, word.length, hashOf(word), false);
  }

  has(word: string): boolean {
    const hash = hashOf(word);
    const mask = this.slots.length - 1;
    for (let slot = hash & mask; ; slot = (slot + 1) & mask) {
      const entry = this.slots[slot];
      if (entry === EMPTY) return false;
      const index = entry - 1;
      if (this.ranges[index * STRIDE + HASH] === hash && this.sameRange(index, word, 0, word.length, false)) return true;
    }
  }

  forEach(callback: (value: string, key: string, set: ReadonlySet<string>) => void, thisArg?: unknown): void {
    for (const word of this.words()) callback.call(thisArg, word, word, this);
  }

  keys(): SetIterator<string> {
    return this.words();
  }

  values(): SetIterator<string> {
    return this.words();
  }

  *entries(): SetIterator<[string, string]> {
    for (const word of this.words()) yield [word, word];
  }

  [Symbol.iterator](): SetIterator<string> {
    return this.words();
  }

  private *words(): SetIterator<string> {
    for (let index = 0; index < this.count; index++) yield this.word(index);
  }

  private word(index: number): string {
    const at = index * STRIDE;
    const word = this.sources[this.ranges[at + SOURCE]].slice(this.ranges[at + START], this.ranges[at + END]);
    return this.ranges[at + LOWER] === 1 ? word.toLowerCase() : word;
  }

  /** Word `index` equals `source.slice(start, end)` with 'A'-'Z' lower-cased when `lower`. */
  private sameRange(index: number, source: string, start: number, end: number, lower: boolean): boolean {
    const at = index * STRIDE;
    const wordStart = this.ranges[at + START];
    const length = this.ranges[at + END] - wordStart;
    if (length !== end - start) return false;
    const word = this.sources[this.ranges[at + SOURCE]];
    const wordLower = this.ranges[at + LOWER] === 1;
    for (let i = 0; i < length; i++) {
      let a = word.charCodeAt(wordStart + i);
      let b = source.charCodeAt(start + i);
      if (wordLower) a = lowerAscii(a);
      if (lower) b = lowerAscii(b);
      if (a !== b) return false;
    }
    return true;
  }

  private insert(slot: number, source: string, start: number, end: number, lower: number, hash: number): void {
    const index = this.count++;
    const at = index * STRIDE;
    if (at >= this.ranges.length) {
      const ranges = new Int32Array(this.ranges.length * 2);
      ranges.set(this.ranges);
      this.ranges = ranges;
    }
    const sources = this.sources;
    if (sources.length === 0 || sources[sources.length - 1] !== source) sources.push(source);
    this.ranges[at + SOURCE] = sources.length - 1;
    this.ranges[at + START] = start;
    this.ranges[at + END] = end;
    this.ranges[at + LOWER] = lower;
    this.ranges[at + HASH] = hash;
    this.slots[slot] = index + 1;
    if (this.count * 2 > this.slots.length) this.grow();
  }

  private grow(): void {
    const slots = new Int32Array(this.slots.length * 2);
    const mask = slots.length - 1;
    for (let index = 0; index < this.count; index++) {
      let slot = this.ranges[index * STRIDE + HASH] & mask;
      while (slots[slot] !== EMPTY) slot = (slot + 1) & mask;
      slots[slot] = index + 1;
    }
    this.slots = slots;
  }
}
