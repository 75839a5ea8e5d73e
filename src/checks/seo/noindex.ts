import { capItems, defineCheck, type CheckContext } from '../check.ts';
import { robotsDirectives, xRobotsTagDirectives } from '../../parse/robots-directives.ts';
import { metasNamed } from './meta-tags.ts';
import { outcomeFromErrors } from './outcome.ts';
import { List, Nullable, Obj, Str } from '../value-schema.ts';

/** Meta names Googlebot obeys: the generic one and its own. */
const META_NAMES = ['robots', 'googlebot'];
const CRAWLER = 'googlebot';

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
  labels: {
    directives: 'Robots directives', blocked_by: 'Blocked by', noindex: 'Directives that keep the page out of search', source: 'Where',
    content: 'Directive',
  },
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
    return robotsDirectives(meta.content ?? '').map((content) => ({ source, content }));
  });
}

/** One X-Robots-Tag header line: only directives for every crawler and those scoped to Googlebot count. */
function headerDirectives(header: string): Directive[] {
  return xRobotsTagDirectives(header)
    .filter(({ agent }) => agent === null || agent === CRAWLER)
    .map(({ agent, directive }) => ({ source: agent === null ? 'X-Robots-Tag header' : `X-Robots-Tag header for ${agent}`, content: directive }));
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
