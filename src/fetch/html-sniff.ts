// Whether a body sent without a Content-Type is HTML, by the MIME Sniffing standard's HTML patterns
// (https://mimesniff.spec.whatwg.org/#identifying-a-resource-with-an-unknown-mime-type).
import { bomEncoding } from './charset.ts';

const HTML_PATTERNS = [
  '<!doctype html', '<html', '<head', '<script', '<iframe', '<h1', '<div', '<font', '<table', '<a', '<style',
  '<title', '<b', '<body', '<br', '<p', '<!--',
];

export function looksLikeHtml(bytes: Buffer): boolean {
  let start = bomEncoding(bytes) === 'utf-8' ? 3 : 0;
  while (start < bytes.length && isWhitespace(bytes[start])) start++;
  const head = bytes.toString('latin1', start, start + 16).toLowerCase();
  return HTML_PATTERNS.some((pattern) => {
    if (!head.startsWith(pattern)) return false;
    // The pattern must end at a tag-terminating byte: "<a " or "<a>", not "<abbr".
    const next = head.charCodeAt(pattern.length);
    return next === 0x20 || next === 0x3e;
  });
}

function isWhitespace(byte: number): boolean {
  return byte === 0x09 || byte === 0x0a || byte === 0x0c || byte === 0x0d || byte === 0x20;
}
