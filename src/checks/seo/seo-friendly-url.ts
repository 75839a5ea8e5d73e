import { capItems, defineCheck, type CheckErrors } from '../check.ts';
import { codePointLength } from './text-measure.ts';
import { outcomeFromErrors } from './outcome.ts';
import { Int, Nullable, Obj, Opt, Str } from '../value-schema.ts';

const SeoFriendlyUrlValue = Obj({ url: Str(), path: Opt(Str()), length: Opt(Int()), query: Opt(Nullable(Str())) });

export const seoFriendlyUrlCheck = defineCheck<typeof SeoFriendlyUrlValue>({
  id: 'seo_friendly_url',
  category: 'seo',
  importance: 'medium',
  title: 'The URL is short and readable',
  failureTitle: 'The URL is long or hard to read',
  description:
    'A short URL with words separated by hyphens is easy to read, share and understand in search results. Search engines treat underscores as joining words, and spaces and double slashes make URLs fragile.',
  howToFix:
    'Use lower-case words separated by hyphens in the path, without underscores, spaces or `//`, and keep the whole URL within the limit; redirect the old URL to the new one with a 301.',
  labels: {
    url: 'URL', path: 'Path', length: 'Length (characters)', query: 'Query string', invalid: 'Invalid URL',
    underscores: 'Underscores in the path', spaces: 'Spaces in the path', double_slash: 'Double slash in the path',
    too_long: 'URL too long', max: 'Most characters allowed',
  },
  value: SeoFriendlyUrlValue,
  run({ page, thresholds }) {
    if (!URL.canParse(page.finalUrl)) return { passed: false, value: { url: page.finalUrl }, errors: { invalid: [page.finalUrl] } };
    const url = new URL(page.finalUrl);
    // Judged as people read it: percent-escapes decoded, so "%5F" is an underscore and "é" one character.
    const path = safeDecode(url.pathname);
    const readable = safeDecode(url.href);
    const length = codePointLength(readable);
    const segments = path.split('/');

    const errors: CheckErrors = {};
    const withUnderscore = segments.filter((segment) => segment.includes('_'));
    const withSpace = segments.filter((segment) => /\s/.test(segment));
    if (withUnderscore.length > 0) errors.underscores = capItems(withUnderscore);
    if (withSpace.length > 0) errors.spaces = capItems(withSpace);
    if (path.includes('//')) errors.double_slash = [path];
    if (length > thresholds.url_max_chars) errors.too_long = [{ length, max: thresholds.url_max_chars }];

    // A query string is normal for filters and tracking; it is shown, not judged.
    const value = { url: readable, path, length, query: url.search === '' ? null : safeDecode(url.search) };
    return outcomeFromErrors(value, errors);
  },
});

function safeDecode(text: string): string {
  try {
    return decodeURI(text);
  } catch {
    return text;
  }
}
