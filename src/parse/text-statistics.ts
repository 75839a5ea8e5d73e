// What the visible text holds, taken as it streams past in pieces without joining it into one
// string: word and character counts, the distinct words, e-mail addresses. A word is a run of
// letters, digits and combining marks; CJK ideographs and kana count one word each, because those
// scripts put no spaces between words.
import { collectEmails, MAX_EMAILS } from './emails.ts';
import { mixWordHash, WORD_HASH_SEED, WordSet } from './word-set.ts';

/** Distinct words kept for keyword checks; a bound on memory for huge pages. */
export const MAX_DISTINCT_WORDS = 20_000;

const OTHER = 1;
const SPACE = 2;
const CJK = 3;
/** The first half of a surrogate pair: the class depends on the code point. */
const HIGH_SURROGATE = 4;
/** Classes from WORD up are word characters. */
const WORD = 5;
/** A word character that lower-cases to something else. */
const WORD_UPPER = 6;

const WORD_CHAR = /^[\p{L}\p{N}\p{M}]$/u;
const SPACE_CHAR = /^\s$/;

function isCjkBmp(c: number): boolean {
  return (
    (c >= 0x3005 && c <= 0x3007) || // 々 〆 〇
    (c >= 0x3040 && c <= 0x30ff) || // hiragana, katakana
    (c >= 0x31f0 && c <= 0x31ff) || // katakana phonetic extensions
    (c >= 0x3400 && c <= 0x4dbf) || // CJK extension A
    (c >= 0x4e00 && c <= 0x9fff) || // CJK unified ideographs
    (c >= 0xf900 && c <= 0xfaff) || // CJK compatibility ideographs
    (c >= 0xff66 && c <= 0xff9d) // half-width katakana
  );
}

function classify(c: number): number {
  if (c >= 0xd800 && c <= 0xdbff) return HIGH_SURROGATE;
  if (isCjkBmp(c)) return CJK;
  const ch = String.fromCharCode(c);
  if (SPACE_CHAR.test(ch)) return SPACE;
  if (!WORD_CHAR.test(ch)) return OTHER;
  return ch.toLowerCase() === ch ? WORD : WORD_UPPER;
}

/** Character class per UTF-16 code unit, filled on first sight (0 = not classified yet). */
const charClass = new Uint8Array(0x10000);
for (let c = 0; c < 0x80; c++) charClass[c] = classify(c);

function classifyAstral(codePoint: number): number {
  if ((codePoint >= 0x20000 && codePoint <= 0x3ffff) || (codePoint >= 0x1b000 && codePoint <= 0x1b2ff)) {
    return CJK; // CJK extensions B and later, kana supplements
  }
  // astral letters rarely have case (Deseret, Osage...); treat them as possibly upper-case
  return WORD_CHAR.test(String.fromCodePoint(codePoint)) ? WORD_UPPER : OTHER;
}

export class TextStatistics {
  wordCount = 0;
  /** Characters (UTF-16 code units, like `html.length`), each whitespace run between text counted as one. */
  charCount = 0;
  /** Distinct words, lower-cased, in order of first use (at most MAX_DISTINCT_WORDS). */
  readonly words = new WordSet(MAX_DISTINCT_WORDS);
  /** E-mail addresses by lower-case form, as first written. */
  readonly emails = new Map<string, string>();
  private inWord = false;
  /** The start of a word that began in an earlier piece of text. */
  private partialWord = '';
  /** The current word has a character that may be upper-case, so it must be lower-cased for `words`. */
  private wordHasUpper = false;
  private pendingSpace = false;

  /**
   * Adds the visible text `source.slice(start, end)`; a word may continue from the previous piece
   * (`caf` + `&eacute;`). Taking a range lets the caller pass the flat document string.
   */
  add(source: string, start: number, end: number): void {
    let charCount = this.charCount;
    let pendingSpace = this.pendingSpace;
    let hasUpper = this.wordHasUpper;
    let wordStart = this.inWord ? start : -1;
    // The word's hash for WordSet as it is read, and whether its upper-case letters are all ASCII
    // (else it must go through toLowerCase).
    let hash = WORD_HASH_SEED;
    let asciiUpper = true;
    let hasAtSign = false;
    for (let i = start; i < end; i++) {
      const c = source.charCodeAt(i);
      let cls = charClass[c];
      if (cls === 0) cls = charClass[c] = classify(c);
      let units = 1;
      if (cls === HIGH_SURROGATE) {
        const low = i + 1 < end ? source.charCodeAt(i + 1) : 0;
        if (low >= 0xdc00 && low <= 0xdfff) {
          cls = classifyAstral(((c - 0xd800) << 10) + (low - 0xdc00) + 0x10000);
          units = 2;
        } else {
          cls = OTHER;
        }
      }

      if (cls === SPACE) {
        pendingSpace = true;
        if (wordStart >= 0) {
          this.endWord(source, wordStart, i, hasUpper, hash, asciiUpper);
          wordStart = -1;
        }
        while (i + 1 < end && charClass[source.charCodeAt(i + 1)] === SPACE) i++;
        continue;
      }
      if (pendingSpace) {
        if (charCount > 0) charCount++;
        pendingSpace = false;
      }
      if (cls >= WORD) {
        if (wordStart < 0) {
          wordStart = i;
          hasUpper = false;
          hash = WORD_HASH_SEED;
          asciiUpper = true;
          this.inWord = true;
          this.wordCount++;
        }
        // the rest of the run in one tight loop (astral and unclassified characters leave it)
        const runStart = i;
        if (cls === WORD_UPPER) {
          hasUpper = true;
          if (c >= 0x80) asciiUpper = false; // (an astral letter counts as upper-case: c is its high surrogate)
          hash = mixWordHash(hash, c | 0x20);
        } else {
          hash = mixWordHash(hash, c);
        }
        while (i + 1 < end) {
          const nextChar = source.charCodeAt(i + 1);
          const next = charClass[nextChar];
          if (next < WORD) break;
          if (next === WORD_UPPER) {
            hasUpper = true;
            if (nextChar >= 0x80) asciiUpper = false;
            hash = mixWordHash(hash, nextChar | 0x20);
          } else {
            hash = mixWordHash(hash, nextChar);
          }
          i++;
        }
        charCount += i - runStart + units;
      } else {
        charCount += units;
        if (wordStart >= 0) {
          this.endWord(source, wordStart, i, hasUpper, hash, asciiUpper);
          wordStart = -1;
        }
        if (cls === CJK) {
          this.wordCount++;
          this.words.addRange(source, i, i + units, false);
        } else if (c === 0x40) {
          hasAtSign = true;
        }
      }
      i += units - 1;
    }
    if (wordStart >= 0) this.partialWord += source.slice(wordStart, end);
    this.charCount = charCount;
    this.pendingSpace = pendingSpace;
    this.wordHasUpper = hasUpper;
    if (hasAtSign && this.emails.size < MAX_EMAILS) collectEmails(source.slice(start, end), this.emails);
  }

  /** A boundary between blocks (`<p>`, `<br>`, `<li>`, ...): ends the current word and acts as a space. */
  addBreak(): void {
    this.pendingSpace = true;
    if (this.inWord) this.endWord('', 0, 0, this.wordHasUpper, 0, false);
  }

  /** Ends any word still open at the end of the document. */
  finish(): void {
    if (this.inWord) this.endWord('', 0, 0, this.wordHasUpper, 0, false);
  }

  /**
   * Ends the word `partialWord + source.slice(start, end)`. When it lies within `source` (no partial
   * word), `hash` is its WordSet hash and `asciiUpper` says whether lower-casing 'A'-'Z' lower-cases it.
   */
  private endWord(source: string, start: number, end: number, hasUpper: boolean, hash: number, asciiUpper: boolean): void {
    this.inWord = false;
    if (this.partialWord === '') {
      if (asciiUpper) this.words.addHashed(source, start, end, hash, hasUpper);
      else this.words.add(source.slice(start, end).toLowerCase());
      return;
    }
    const word = this.partialWord + source.slice(start, end);
    this.partialWord = '';
    this.words.add(hasUpper ? word.toLowerCase() : word);
  }
}
