import { capItems, defineCheck, type CheckContext } from '../check.ts';
import { metasNamed } from './meta-tags.ts';
import { outcomeFromErrors } from './outcome.ts';
import { List, Nullable, Obj, Str } from '../value-schema.ts';

/** Meta names Googlebot obeys: the generic one and its own. */
const META_NAMES = ['robots', 'googlebot'];
const CRAWLER = 'googlebot';

/** Robots directives that take a value after a colon, so "max-snippet: 20" is not a user agent named max-snippet. */
const VALUED_DIRECTIVES = new Set(['max-snippet', 'max-image-preview', 'max-video-preview', 'unavailable_after']);

interface Directive {
  source: string;
  content: string;
}

const NoindexValue = Obj({
  directives: List(Obj({ source: Str(), content: Str() }), 'robots directives for all robots or Googlebot, meta tags and X-Robots-Tag'),
  blocked_by: Nullable(Str()),
});

export const noindexCheck = defineCheck<typeof NoindexValue>({
  id: 'noindex',
  category: 'seo',
  importance: 'high',
  title: 'The page may be indexed',
  failureTitle: 'The page tells search engines not to index it',
  description:
    'A `noindex` (or `none`) in a robots meta tag or the X-Robots-Tag header keeps the page out of search results entirely, however good it is; so does an `unavailable_after` date that has passed.',
  howToFix:
    'If the page should appear in search, remove `noindex`/`none` from the source shown: the `<meta name="robots">` or `<meta name="googlebot">` tag, or the X-Robots-Tag header set by the server.',
  value: NoindexValue,
  run(ctx) {
    const directives = [...metaDirectives(ctx), ...ctx.page.xRobotsTag.flatMap(headerDirectives)];
    const responseDate = ctx.page.headers['date'];
    const blocking = directives.filter((directive) => keepsOutOfIndex(directive.content, responseDate));
    const value = { directives: capItems(directives), blocked_by: blocking[0]?.source ?? null };
    return outcomeFromErrors(value, blocking.length === 0 ? {} : { noindex: capItems(blocking) });
  },
});

/** Comma-separated tokens of robots meta tags for all robots or Googlebot; a tag without content says nothing. */
function metaDirectives({ snapshot }: CheckContext): Directive[] {
  return metasNamed(snapshot.metas, META_NAMES).flatMap((meta) => {
    const source = `<meta name="${meta.name}">${meta.inHead ? '' : ' in <body>'}`;
    return tokens(meta.content ?? '').map((content) => ({ source, content }));
  });
}

/**
 * One X-Robots-Tag header line. A token "name: directive" scopes it and the tokens after it on the
 * same line to crawler `name` ("otherbot: noindex, nofollow"); only unscoped ones and Googlebot's count.
 */
function headerDirectives(header: string): Directive[] {
  const directives: Directive[] = [];
  let agent: string | null = null;
  for (const token of tokens(header)) {
    let content = token;
    const colon = token.indexOf(':');
    if (colon !== -1) {
      const prefix = token.slice(0, colon).trim();
      if (!VALUED_DIRECTIVES.has(prefix) && /^[a-z0-9_-]+$/.test(prefix)) {
        agent = prefix;
        content = token.slice(colon + 1).trim();
      }
    }
    if (agent === null || agent === CRAWLER) {
      directives.push({ source: agent === null ? 'X-Robots-Tag header' : `X-Robots-Tag header for ${agent}`, content });
    }
  }
  return directives;
}

/** noindex, none, or an unavailable_after date already past when the server answered (its Date header). */
function keepsOutOfIndex(content: string, responseDate: string | undefined): boolean {
  if (content === 'noindex' || content === 'none') return true;
  const until = /^unavailable_after\s*:\s*(.+)$/.exec(content);
  if (until === null || responseDate === undefined) return false;
  const expires = Date.parse(until[1]);
  const answered = Date.parse(responseDate);
  return Number.isFinite(expires) && Number.isFinite(answered) && expires <= answered;
}

/** Comma-separated directives; a comma before a digit belongs to a date ("unavailable_after: Wed, 21 Oct 2015"). */
function tokens(list: string): string[] {
  return list
    .split(/,(?!\s*\d)/)
    .map((token) => token.trim().toLowerCase())
    .filter(Boolean);
}
