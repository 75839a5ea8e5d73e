// Counts words and characters of visible text as it streams past in pieces, without joining it into
// one string. A word is a run of letters, digits and combining marks; CJK ideographs and kana count one
// word each, because those scripts put no spaces between words.

/** Distinct words kept for keyword checks; a bound on memory for huge pages. */
export const MAX_DISTINCT_WORDS = 20_000;

const OTHER = 1;
const SPACE = 2;
const WORD = 3;
const CJK = 4;

/** Character class per UTF-16 code unit, filled lazily (0 = not looked at yet). */
const bmpClass = new Uint8Array(0x10000);
for (let c = 0; c < 0x80; c++) {
  const ch = String.fromCharCode(c);
  bmpClass[c] = /\s/.test(ch) ? SPACE : /[A-Za-z0-9]/.test(ch) ? WORD : OTHER;
}

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

function classifyBmp(c: number): number {
  let cls = bmpClass[c];
  if (cls === 0) {
    const ch = String.fromCharCode(c);
    cls = isCjkBmp(c) ? CJK : SPACE_CHAR.test(ch) ? SPACE : WORD_CHAR.test(ch) ? WORD : OTHER;
    bmpClass[c] = cls;
  }
  return cls;
}

function classifyAstral(codePoint: number): number {
  if ((codePoint >= 0x20000 && codePoint <= 0x3ffff) || (codePoint >= 0x1b000 && codePoint <= 0x1b2ff)) {
    return CJK; // CJK extensions B and later, kana supplements
  }
  return WORD_CHAR.test(String.fromCodePoint(codePoint)) ? WORD : OTHER;
}

export class TextStatistics {
  wordCount = 0;
  /** Characters (UTF-16 code units, like `html.length`), each whitespace run between text counted as one. */
  charCount = 0;
  readonly words = new Set<string>();
  private inWord = false;
  /** The start of a word that began in an earlier piece of text. */
  private partialWord = '';
  private pendingSpace = false;

  /** Adds a piece of visible text; a word may continue from the previous piece (`caf` + `&eacute;`). */
  add(text: string): void {
    let wordStart = this.inWord ? 0 : -1;
    const length = text.length;
    for (let i = 0; i < length; i++) {
      const c = text.charCodeAt(i);
      let cls: number;
      let units = 1;
      if (c < 0x80) {
        cls = bmpClass[c];
      } else if (c >= 0xd800 && c <= 0xdbff && i + 1 < length) {
        const low = text.charCodeAt(i + 1);
        if (low >= 0xdc00 && low <= 0xdfff) {
          cls = classifyAstral(((c - 0xd800) << 10) + (low - 0xdc00) + 0x10000);
          units = 2;
        } else {
          cls = OTHER;
        }
      } else {
        cls = classifyBmp(c);
      }

      if (cls === SPACE) {
        this.pendingSpace = true;
        if (wordStart >= 0) {
          this.endWord(text, wordStart, i);
          wordStart = -1;
        }
        continue;
      }

      if (this.pendingSpace) {
        if (this.charCount > 0) this.charCount++;
        this.pendingSpace = false;
      }
      this.charCount += units;

      if (cls === WORD) {
        if (wordStart < 0) {
          wordStart = i;
          if (!this.inWord) {
            this.inWord = true;
            this.wordCount++;
          }
        }
      } else {
        if (wordStart >= 0) {
          this.endWord(text, wordStart, i);
          wordStart = -1;
        }
        if (cls === CJK) {
          this.wordCount++;
          this.addWord(text.slice(i, i + units));
        }
      }
      i += units - 1;
    }
    if (wordStart >= 0) this.partialWord += text.slice(wordStart);
  }

  /** A boundary between blocks (`<p>`, `<br>`, `<li>`, ...): ends the current word and acts as a space. */
  addBreak(): void {
    this.pendingSpace = true;
    if (this.inWord) this.endWord('', 0, 0);
  }

  /** Ends any word still open at the end of the document. */
  finish(): void {
    if (this.inWord) this.endWord('', 0, 0);
  }

  private endWord(text: string, start: number, end: number): void {
    const word = this.partialWord === '' ? text.slice(start, end) : this.partialWord + text.slice(start, end);
    this.partialWord = '';
    this.inWord = false;
    this.addWord(word);
  }

  private addWord(word: string): void {
    if (this.words.size < MAX_DISTINCT_WORDS) this.words.add(word.toLowerCase());
  }
}
