// The Strict-Transport-Security header (RFC 6797): what the hsts check reads from the response.

interface HstsPolicy {
  maxAge: number;
  includeSubDomains: boolean;
  preload: boolean;
}

/** RFC 6797 §6.1: directives are case-insensitive, values may be quoted, a repeated directive voids the header. */
export function parseHsts(header: string): HstsPolicy | string {
  // Repeated headers arrive joined with ", "; browsers honour only the first one.
  const first = splitOutsideQuotes(header, ',')[0];
  const seen = new Map<string, string | null>();
  for (const directive of splitOutsideQuotes(first, ';')) {
    if (directive.trim() === '') continue;
    const equals = directive.indexOf('=');
    const name = (equals === -1 ? directive : directive.slice(0, equals)).trim().toLowerCase();
    const rawValue = equals === -1 ? null : directive.slice(equals + 1).trim();
    if (seen.has(name)) return `directive "${name}" appears twice`;
    seen.set(name, rawValue === null ? null : unquote(rawValue));
  }
  const maxAge = seen.get('max-age');
  if (maxAge === undefined || maxAge === null) return 'no max-age directive';
  if (!/^\d+$/.test(maxAge)) return `max-age "${maxAge}" is not a number`;
  return { maxAge: Number(maxAge), includeSubDomains: seen.has('includesubdomains'), preload: seen.has('preload') };
}

function unquote(value: string): string {
  const quoted = /^"(.*)"$/s.exec(value);
  return quoted ? quoted[1].replace(/\\(.)/g, '$1') : value;
}

function splitOutsideQuotes(text: string, separator: string): string[] {
  const parts: string[] = [];
  let current = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const char = text[i];
    if (char === '\\' && quoted) {
      current += char + (text[i + 1] ?? '');
      i++;
    } else if (char === '"') {
      quoted = !quoted;
      current += char;
    } else if (char === separator && !quoted) {
      parts.push(current);
      current = '';
    } else {
      current += char;
    }
  }
  parts.push(current);
  return parts;
}
