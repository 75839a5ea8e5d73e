// One spelling of a path for robots.txt matching (RFC 9309 section 2.2.2), applied alike to the
// patterns and to the URL so that the comparison does not depend on who wrote which.

const UNRESERVED = /^[A-Za-z0-9\-._~]$/;
// Characters URL serialisers percent-encode inconsistently (WHATWG encodes ' only in queries, for one):
// encoding them on both sides makes the comparison independent of who wrote the URL.
const ALWAYS_ENCODED = /^[\s"'<>\\^`{|}\x00-\x1f\x7f]$/;
/** Text without `%`, non-ASCII or ALWAYS_ENCODED characters is already in its one spelling. */
const NEEDS_WORK = /[^\x21-\x7e]|["'<>\\^`{|}%]/;

/**
 * `%xx` of an unreserved character is decoded, other escapes are upper-cased, non-ASCII and unsafe
 * characters are UTF-8 percent-encoded. Linear in the text's length.
 */
export function normalisePercentEncoding(text: string): string {
  if (!NEEDS_WORK.test(text)) return text;
  let out = '';
  for (let i = 0; i < text.length; ) {
    const hex = text.slice(i + 1, i + 3);
    if (text[i] === '%' && /^[0-9a-f]{2}$/i.test(hex)) {
      const decoded = String.fromCharCode(parseInt(hex, 16));
      out += UNRESERVED.test(decoded) ? decoded : `%${hex.toUpperCase()}`;
      i += 3;
      continue;
    }
    const ch = String.fromCodePoint(text.codePointAt(i)!);
    out += ch.codePointAt(0)! > 0x7e || ALWAYS_ENCODED.test(ch) ? percentEncode(ch) : ch;
    i += ch.length;
  }
  return out;
}

function percentEncode(ch: string): string {
  try {
    return encodeURIComponent(ch);
  } catch {
    return '%EF%BF%BD'; // a lone surrogate: encode as U+FFFD like a UTF-8 encoder would
  }
}
