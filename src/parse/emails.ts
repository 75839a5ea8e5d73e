// E-mail addresses in page text and in mailto: links. The text scanner works outward from each "@"
// with bounded lengths instead of running a regular expression over the text, so a long run of
// address-like characters cannot make it quadratic.
import { isJsWhitespace } from './whitespace.ts';

/** Addresses kept per list: enough to show the problem, bounded for hostile pages. */
export const MAX_EMAILS = 50;

// RFC 5321 limits: 64 characters before the "@", 255 after.
const MAX_LOCAL_LENGTH = 64;
const MAX_DOMAIN_LENGTH = 255;

/** "icon@2x.png" is a file name, not an address. */
const FILE_EXTENSIONS = new Set(['png', 'jpg', 'jpeg', 'gif', 'webp', 'avif', 'svg', 'ico', 'bmp']);

function isLocalChar(c: number): boolean {
  return (
    (c >= 0x61 && c <= 0x7a) || // a-z
    (c >= 0x41 && c <= 0x5a) || // A-Z
    (c >= 0x30 && c <= 0x39) || // 0-9
    c === 0x2e || c === 0x5f || c === 0x25 || c === 0x2b || c === 0x2d // . _ % + -
  );
}

function isDomainChar(c: number): boolean {
  return (
    (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a) || (c >= 0x30 && c <= 0x39) || c === 0x2e || c === 0x2d
  );
}

/** The address around the "@" at `at`, or null when the characters around it do not form one. */
function addressAt(text: string, at: number): string | null {
  let start = at;
  while (start > 0 && at - start < MAX_LOCAL_LENGTH && isLocalChar(text.charCodeAt(start - 1))) start--;
  while (start < at && text.charCodeAt(start) === 0x2e) start++; // a leading "." ends the sentence before
  if (start === at || text.charCodeAt(at - 1) === 0x2e) return null;

  let end = at + 1;
  while (end < text.length && end - at <= MAX_DOMAIN_LENGTH && isDomainChar(text.charCodeAt(end))) end++;
  // a trailing "." or "-" belongs to the sentence, not the domain
  while (end > at + 1 && (text.charCodeAt(end - 1) === 0x2e || text.charCodeAt(end - 1) === 0x2d)) end--;
  const domain = text.slice(at + 1, end);
  const labels = domain.split('.');
  if (labels.length < 2 || labels.some((label) => label === '')) return null;
  const tld = labels[labels.length - 1];
  if (!/^[A-Za-z]{2,24}$/.test(tld) || FILE_EXTENSIONS.has(tld.toLowerCase())) return null;
  return `${text.slice(start, at)}@${domain}`;
}

/** Collects e-mail addresses found in `text` into `found` (keyed lower-case), up to MAX_EMAILS. */
export function collectEmails(text: string, found: Map<string, string>): void {
  let at = text.indexOf('@');
  while (at !== -1 && found.size < MAX_EMAILS) {
    const address = addressAt(text, at);
    if (address !== null) {
      const key = address.toLowerCase();
      if (!found.has(key)) found.set(key, address);
    }
    at = text.indexOf('@', at + 1);
  }
}

const MAILTO = /^\s*mailto:/i;

/** Whether `href` can start with `mailto:`: its first character that is not whitespace is an "m". */
function mayBeMailto(href: string): boolean {
  let i = 0;
  while (i < href.length && isJsWhitespace(href.charCodeAt(i))) i++;
  return (href.charCodeAt(i) | 0x20) === 0x6d;
}

/** The addresses of a `mailto:` href (several may be comma-separated; the query is dropped). */
export function mailtoAddresses(href: string): string[] {
  // most links are not mailto: links; tell them apart without the regular expression
  if (!mayBeMailto(href)) return [];
  const prefix = MAILTO.exec(href);
  if (prefix === null) return [];
  let target = href.slice(prefix[0].length);
  const query = target.indexOf('?');
  if (query !== -1) target = target.slice(0, query);
  try {
    target = decodeURIComponent(target);
  } catch {
    // a stray "%" that is not an escape: keep the text as written
  }
  return target
    .split(',')
    .map((address) => address.trim())
    .filter((address) => address.includes('@'));
}
