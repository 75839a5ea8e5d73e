import { defineCheck, notApplicable } from '../check.ts';
import { isHttpsPage } from './page-scheme.ts';
import { Bool, Int, Nullable, Num, Obj, Opt, Str } from '../value-schema.ts';

interface HstsPolicy {
  maxAge: number;
  includeSubDomains: boolean;
  preload: boolean;
}

const HstsValue = Obj({
  header: Nullable(Str()),
  max_age: Opt(Int()),
  include_subdomains: Opt(Bool()),
  preload: Opt(Bool()),
  min_max_age: Num(),
});

export const hstsCheck = defineCheck<typeof HstsValue>({
  id: 'hsts',
  category: 'security',
  importance: 'low',
  title: 'HSTS is on, with a long max-age',
  failureTitle: 'HSTS is missing or too short',
  description:
    'Strict-Transport-Security tells browsers to use only https for the site, so a visitor cannot be downgraded to http by an attacker on the network. A max-age under a year leaves gaps.',
  howToFix:
    'Send `Strict-Transport-Security: max-age=31536000; includeSubDomains` on https responses (add `preload` and submit the domain to hstspreload.org once every subdomain serves https).',
  value: HstsValue,
  run({ page, thresholds }) {
    if (!isHttpsPage(page)) return notApplicable('the page is not served over https (browsers ignore HSTS over http)');
    const header = page.headers['strict-transport-security'] ?? null;
    const minimum = thresholds.min_hsts_max_age_s;
    if (header === null || header.trim() === '') {
      return { passed: false, value: { header: null, min_max_age: minimum }, errors: { missing: ['Strict-Transport-Security'] } };
    }
    const policy = parseHsts(header);
    if (typeof policy === 'string') {
      return { passed: false, value: { header, min_max_age: minimum }, errors: { invalid: [`${policy}: ${header}`] } };
    }
    const value = {
      header,
      max_age: policy.maxAge,
      include_subdomains: policy.includeSubDomains,
      preload: policy.preload,
      min_max_age: minimum,
    };
    if (policy.maxAge >= minimum) return { passed: true, value, errors: null };
    return { passed: false, value, errors: { max_age_too_short: [policy.maxAge] } };
  },
});

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
