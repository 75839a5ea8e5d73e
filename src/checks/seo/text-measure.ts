// How pagegrade measures short texts (titles, descriptions): whitespace runs count as one space and
// length is in Unicode code points, so "é" or "😀" is one character, as people and search results count.

/** Collapse every run of whitespace (NBSP and other Unicode spaces included) to one space, and trim. */
export { collapseWhitespace } from '../../parse/whitespace.ts';

/** Length in Unicode code points (not UTF-16 units, not bytes). */
export function codePointLength(text: string): number {
  let count = 0;
  for (const _ of text) count++;
  return count;
}
