// `text.replace(/\s+/g, ' ').trim()` without the regular expression: link and heading texts are
// collapsed once each while parsing (tens of thousands on a large page), and most of them only need
// their ends trimmed, or nothing at all.

/** ASCII whitespace: what the HTML standard splits tokens on and skips around them. */
export function isAsciiWhitespace(c: number): boolean {
  return c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0c || c === 0x0d;
}

/** Whether UTF-16 code unit `c` is whitespace for JavaScript's `\s` (and `trim`). */
export function isJsWhitespace(c: number): boolean {
  if (c < 0x80) return c === 0x20 || (c >= 0x09 && c <= 0x0d);
  return (
    c === 0xa0 ||
    c === 0x1680 ||
    (c >= 0x2000 && c <= 0x200a) ||
    c === 0x2028 ||
    c === 0x2029 ||
    c === 0x202f ||
    c === 0x205f ||
    c === 0x3000 ||
    c === 0xfeff
  );
}

/** Every run of whitespace as one space, none at either end: `text.replace(/\s+/g, ' ').trim()`. */
export function collapseWhitespace(text: string): string {
  let start = 0;
  let end = text.length;
  while (start < end && isJsWhitespace(text.charCodeAt(start))) start++;
  while (end > start && isJsWhitespace(text.charCodeAt(end - 1))) end--;
  let i = start;
  // the common case: words with single spaces between them, kept as they are
  for (; i < end; i++) {
    const c = text.charCodeAt(i);
    if (isJsWhitespace(c) && (c !== 0x20 || isJsWhitespace(text.charCodeAt(i + 1)))) break;
  }
  if (i === end) return start === 0 && end === text.length ? text : text.slice(start, end);

  let collapsed = text.slice(start, i);
  while (i < end) {
    while (isJsWhitespace(text.charCodeAt(i))) i++; // stops before `end`: text[end - 1] is not whitespace
    const wordStart = i;
    while (i < end && !isJsWhitespace(text.charCodeAt(i))) i++;
    collapsed += ' ' + text.slice(wordStart, i);
  }
  return collapsed;
}

/**
 * Builds `collapseWhitespace` of text that arrives in pieces (the text of a link or heading) as it
 * comes: only the words are kept, so the pieces' whitespace (often most of their characters: markup
 * indentation) is never copied or joined. Text that stands in the document as it will read (words of
 * one piece with single spaces between them, the common case) is taken with one slice at the end.
 */
export class CollapsedText {
  /** The text so far when it is not one range of a source. */
  private text = '';
  /** Else the text so far is `source.slice(start, end)` (empty while `source` is null). */
  private source: string | null = null;
  private start = 0;
  private end = 0;
  /** Whitespace came after the last word: the next word starts with a space. */
  private spaceBefore = false;

  /** Adds `source.slice(start, end)`; a word may continue from the previous piece. */
  add(source: string, start: number, end: number): void {
    let i = start;
    while (i < end) {
      if (isJsWhitespace(source.charCodeAt(i))) {
        this.spaceBefore = true;
        i++;
        continue;
      }
      const wordStart = i;
      while (i < end && !isJsWhitespace(source.charCodeAt(i))) i++;
      this.addWord(source, wordStart, i);
    }
  }

  /** Whitespace between the pieces around it. */
  addSpace(): void {
    this.spaceBefore = true;
  }

  /** The text so far, collapsed and trimmed; starts over. */
  take(): string {
    const text = this.source !== null ? this.source.slice(this.start, this.end) : this.text;
    this.text = '';
    this.source = null;
    this.spaceBefore = false;
    return text;
  }

  private addWord(source: string, start: number, end: number): void {
    const spaceBefore = this.spaceBefore;
    this.spaceBefore = false;
    if (this.source === null) {
      if (this.text === '') {
        this.source = source;
        this.start = start;
        this.end = end;
      } else {
        this.text += spaceBefore ? ' ' + source.slice(start, end) : source.slice(start, end);
      }
      return;
    }
    // still one range when the document has exactly what the text needs between the words
    if (source === this.source && (spaceBefore ? start === this.end + 1 && source.charCodeAt(this.end) === 0x20 : start === this.end)) {
      this.end = end;
      return;
    }
    this.text = this.source.slice(this.start, this.end) + (spaceBefore ? ' ' : '') + source.slice(start, end);
    this.source = null;
  }
}
