// The candidate URLs of a srcset attribute, split the way the HTML standard's srcset parser does:
// a URL runs to the next whitespace (so commas inside `data:` URLs stay in the URL), and a comma ends
// a candidate's descriptors unless it sits inside parentheses.
import { isAsciiWhitespace } from './whitespace.ts';

export function srcsetUrls(srcset: string): string[] {
  const urls: string[] = [];
  const length = srcset.length;
  let i = 0;
  while (i < length) {
    while (i < length && (isAsciiWhitespace(srcset.charCodeAt(i)) || srcset.charCodeAt(i) === 0x2c)) i++;
    if (i >= length) break;

    const start = i;
    while (i < length && !isAsciiWhitespace(srcset.charCodeAt(i))) i++;
    let end = i;
    if (srcset.charCodeAt(end - 1) === 0x2c) {
      // "a.jpg, b.jpg": the comma ends the candidate and there are no descriptors
      while (end > start && srcset.charCodeAt(end - 1) === 0x2c) end--;
      if (end > start) urls.push(srcset.slice(start, end));
      continue;
    }
    urls.push(srcset.slice(start, end));

    let inParens = false;
    while (i < length) {
      const c = srcset.charCodeAt(i++);
      if (c === 0x28) inParens = true;
      else if (c === 0x29) inParens = false;
      else if (c === 0x2c && !inParens) break;
    }
  }
  return urls;
}
