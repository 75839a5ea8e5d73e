// A page's HTML as decoded text, kept in pieces, with offsets into the whole as if it were one string.
//
// Why pieces: V8 puts every string over 128 KiB in memory mapped for that string alone, so decoding a
// 215 KB page into one string writes ~100 freshly mapped 4 KiB pages, one page fault each, and unmaps
// them again when the string dies. On the VMs the benchmarks run on a fault costs 10-25 µs: decoding
// was the costliest step of a crawled page's analysis (2.8 ms a page, more than the parse). Pieces of
// at most 48 KiB of bytes (decode-page.ts) stay under that size and live in V8's young generation, whose memory is
// reused: decoding and tokenizing the corpus took 1.5 instead of 2.7 ms a page (docs/performance.md).

export class PageText {
  /** Where each piece starts in the whole text. */
  private readonly starts: number[] = [];
  readonly length: number;

  /** `pieces`: the text in order, none of them splitting a surrogate pair. */
  constructor(readonly pieces: readonly string[]) {
    let length = 0;
    for (const piece of pieces) {
      this.starts.push(length);
      length += piece.length;
    }
    this.length = length;
  }

  /** Text already held as one string (a test's page, a browser's DOM): one piece, nothing copied. */
  static of(html: string): PageText {
    return new PageText(html === '' ? [] : [html]);
  }

  /** Like String.prototype.slice for 0 <= start <= end: a copy only when the range crosses pieces. */
  slice(start: number, end: number = this.length): string {
    start = Math.max(0, Math.min(start, this.length));
    end = Math.max(start, Math.min(end, this.length));
    if (start === end) return '';
    let index = this.pieceAt(start);
    const from = start - this.starts[index];
    if (end - this.starts[index] <= this.pieces[index].length) return this.pieces[index].slice(from, end - this.starts[index]);
    let text = this.pieces[index].slice(from);
    while (this.starts[++index] + this.pieces[index].length < end) text += this.pieces[index];
    return text + this.pieces[index].slice(0, end - this.starts[index]);
  }

  /** The offsets just past each "\n". */
  lineBreaks(): number[] {
    const breaks: number[] = [];
    this.pieces.forEach((piece, index) => {
      for (let at = piece.indexOf('\n'); at !== -1; at = piece.indexOf('\n', at + 1)) breaks.push(this.starts[index] + at + 1);
    });
    return breaks;
  }

  toString(): string {
    return this.pieces.join('');
  }

  /** The last piece that starts at or before `offset` (0 when there are none). */
  private pieceAt(offset: number): number {
    let low = 0;
    let high = Math.max(0, this.pieces.length - 1);
    while (low < high) {
      const middle = (low + high + 1) >> 1;
      if (this.starts[middle] <= offset) low = middle;
      else high = middle - 1;
    }
    return low;
  }
}
