// Looks names up straight from the document's characters: `table.find(html, start, end)` gives what
// `map.get(html.slice(start, end).toLowerCase())` would, without making the string in the common case.
// The parser meets a tag or attribute name a few hundred thousand times per megabyte-sized page, and
// slicing, lower-casing and hashing each one costs more than comparing it in place with the one or two
// known names of the same length and first letter.

export class NameTable<T> {
  private readonly byName: Map<string, T>;
  /** Known names by length and first letter (see `bucket`). */
  private readonly buckets: ({ name: string; value: T }[] | undefined)[] = [];
  private readonly maxLength: number;

  /** `entries`: lower-case names, each with the value `find` returns for it. */
  constructor(entries: Iterable<readonly [string, T]>) {
    this.byName = new Map(entries);
    let maxLength = 0;
    for (const [name, value] of this.byName) {
      if (name !== name.toLowerCase() || name === '') throw new Error(`names must be lower-case and not empty: ${name}`);
      (this.buckets[bucket(name.length, name.charCodeAt(0))] ??= []).push({ name, value });
      maxLength = Math.max(maxLength, name.length);
    }
    this.maxLength = maxLength;
  }

  /** The value of the name `source.slice(start, end)`, compared as `toLowerCase` would; undefined when unknown. */
  find(source: string, start: number, end: number): T | undefined {
    const length = end - start;
    // lower-casing never makes a name shorter, so a longer one cannot be known
    if (length > this.maxLength || length === 0) return undefined;
    const first = source.charCodeAt(start);
    if (first >= 0x80) return this.byLowerCase(source, start, end);
    // No known name has this length and first letter: lower-casing keeps an ASCII first letter ASCII,
    // and never shortens a name, so nothing can match (the common case: class, data-*, div, span).
    const candidates = this.buckets[bucket(length, lowerAscii(first))];
    if (candidates === undefined) return undefined;
    for (const candidate of candidates) if (equalsLowered(source, start, end, candidate.name)) return candidate.value;
    // Outside ASCII a letter may lower-case to an ASCII one (the Kelvin sign to "k"): compare exactly.
    for (let i = start + 1; i < end; i++) if (source.charCodeAt(i) >= 0x80) return this.byLowerCase(source, start, end);
    return undefined;
  }

  private byLowerCase(source: string, start: number, end: number): T | undefined {
    return this.byName.get(source.slice(start, end).toLowerCase());
  }
}

function bucket(length: number, first: number): number {
  return (length << 7) | first;
}

/** 'A'-'Z' to 'a'-'z'; other code units unchanged. */
export function lowerAscii(c: number): number {
  return c >= 0x41 && c <= 0x5a ? c | 0x20 : c;
}

/**
 * `source.slice(start, end)` is `name` (lower-case) once 'A'-'Z' are lower-cased. Beyond ASCII this
 * compares code units exactly, so a name that only `toLowerCase` would match is not matched here.
 */
export function equalsLowered(source: string, start: number, end: number, name: string): boolean {
  if (end - start !== name.length) return false;
  for (let i = 0; i < name.length; i++) {
    if (lowerAscii(source.charCodeAt(start + i)) !== name.charCodeAt(i)) return false;
  }
  return true;
}
