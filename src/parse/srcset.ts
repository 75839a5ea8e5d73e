// The srcset attribute, split the way the HTML standard's srcset parser does: a URL runs to the
// next ASCII whitespace (so commas inside `data:` URLs stay in the URL), a comma ends a candidate's
// descriptors unless it sits inside parentheses, and trailing commas end a URL without descriptors.
// The one parser of srcset: the parse step takes the resource URLs from it, image checks the descriptors.
import { isAsciiWhitespace } from './whitespace.ts';

export interface SrcsetCandidate {
  url: string;
  /** "2x", "640w", ... as written; null when the candidate has none (which means 1x). */
  descriptor: string | null;
}

const COMMA = 0x2c;
const OPEN_PAREN = 0x28;
const CLOSE_PAREN = 0x29;

export function parseSrcset(srcset: string): SrcsetCandidate[] {
  const candidates: SrcsetCandidate[] = [];
  const length = srcset.length;
  let i = 0;
  // Code-unit loops rather than a regex per character: pages carry srcsets of many kilobytes.
  while (i < length) {
    while (i < length && (isAsciiWhitespace(srcset.charCodeAt(i)) || srcset.charCodeAt(i) === COMMA)) i++;
    if (i >= length) break;

    // starts on neither whitespace nor a comma, so it is never empty, even without its trailing commas
    const urlStart = i;
    while (i < length && !isAsciiWhitespace(srcset.charCodeAt(i))) i++;
    let urlEnd = i;
    if (srcset.charCodeAt(urlEnd - 1) === COMMA) {
      // "a.jpg, b.jpg": the comma ends the candidate and there are no descriptors
      while (srcset.charCodeAt(urlEnd - 1) === COMMA) urlEnd--;
      candidates.push({ url: srcset.slice(urlStart, urlEnd), descriptor: null });
      continue;
    }

    const descriptorStart = i;
    let inParens = false;
    while (i < length) {
      const c = srcset.charCodeAt(i);
      if (c === OPEN_PAREN) inParens = true;
      else if (c === CLOSE_PAREN) inParens = false;
      else if (c === COMMA && !inParens) break;
      i++;
    }
    const descriptor = trimAsciiWhitespace(srcset, descriptorStart, i);
    candidates.push({ url: srcset.slice(urlStart, urlEnd), descriptor: descriptor === '' ? null : descriptor });
  }
  return candidates;
}

/**
 * The URLs an `<img>` may actually fetch. Its `src` is only a candidate when the srcset has neither
 * a width descriptor nor a 1x candidate (HTML "update the source set").
 */
export function imageCandidateUrls(src: string | null, srcset: string | null): string[] {
  const fromSrcset = srcset ? parseSrcset(srcset) : [];
  const urls = fromSrcset.map((candidate) => candidate.url);
  const trimmedSrc = src?.trim() ?? '';
  const srcsetOverridesSrc = fromSrcset.some(
    ({ descriptor }) => descriptor === null || /^\d+w$/i.test(descriptor) || /^1(\.0*)?x$/i.test(descriptor),
  );
  if (trimmedSrc !== '' && !srcsetOverridesSrc) urls.push(trimmedSrc);
  return urls;
}

function trimAsciiWhitespace(text: string, start: number, end: number): string {
  while (start < end && isAsciiWhitespace(text.charCodeAt(start))) start++;
  while (end > start && isAsciiWhitespace(text.charCodeAt(end - 1))) end--;
  return text.slice(start, end);
}
