// Splits a srcset attribute into its candidates, following the HTML parsing rules closely enough
// for URLs that contain commas (data: URLs) and descriptors with parentheses.
import { isJsWhitespace } from '../../parse/whitespace.ts';

export interface SrcsetCandidate {
  url: string;
  /** "2x", "640w", ... as written; null when the candidate has none (which means 1x). */
  descriptor: string | null;
}

export function parseSrcset(srcset: string): SrcsetCandidate[] {
  const candidates: SrcsetCandidate[] = [];
  const length = srcset.length;
  let position = 0;
  // Code-unit loops rather than a regex per character: pages carry srcsets of many kilobytes.
  while (position < length) {
    while (position < length && (isJsWhitespace(srcset.charCodeAt(position)) || srcset.charCodeAt(position) === COMMA)) position++;
    if (position >= length) break;
    const urlStart = position;
    while (position < length && !isJsWhitespace(srcset.charCodeAt(position))) position++;
    let url = srcset.slice(urlStart, position);
    let descriptor = '';
    if (url.endsWith(',')) {
      url = url.replace(/,+$/, '');
    } else {
      const descriptorStart = position;
      let depth = 0;
      while (position < length) {
        const code = srcset.charCodeAt(position);
        if (code === OPEN_PAREN) depth++;
        else if (code === CLOSE_PAREN) depth = Math.max(0, depth - 1);
        else if (code === COMMA && depth === 0) break;
        position++;
      }
      descriptor = srcset.slice(descriptorStart, position).trim();
    }
    if (url !== '') candidates.push({ url, descriptor: descriptor === '' ? null : descriptor });
  }
  return candidates;
}

const COMMA = 0x2c;
const OPEN_PAREN = 0x28;
const CLOSE_PAREN = 0x29;

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
