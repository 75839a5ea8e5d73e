import { defineCheck, notApplicable, type CheckErrors } from '../check.ts';
import { renderFailed, type RenderedComparison } from '../../render/compare-rendered.ts';
import { outcomeFromErrors } from './outcome.ts';
import { Int, List, Obj, OneOf } from '../value-schema.ts';

const FIELDS = ['title', 'meta_description', 'canonical', 'robots', 'h1'] as const;
type Field = (typeof FIELDS)[number];

/**
 * The raw HTML must already hold at least 80% of the rendered page's internal links and words, or the
 * page depends on JavaScript for its content. A little script-added text (a cookie banner, a date) is
 * normal; a fifth of the page is not.
 */
const MIN_SHARE_IN_RAW = 0.8;

/**
 * Why the check does not apply to a page that was not rendered, in the API's words: the command line
 * says it in its own (src/cli/cli-words.ts), as everything it writes names its options.
 */
export const NOT_RENDERED_REASON = 'The page was not rendered in a browser (ask for it with render=1).';

const JavascriptDependencyValue = Obj({
  changed: List(OneOf([...FIELDS]), 'what JavaScript changed of the title, meta description, canonical, robots meta and h1'),
  internal_links_in_raw_percent: Int({ description: 'share of the rendered page\'s internal links already in the raw HTML' }),
  words_in_raw_percent: Int({ description: 'the raw HTML\'s words as a share of the rendered page\'s' }),
});

export const javascriptDependencyCheck = defineCheck<typeof JavascriptDependencyValue>({
  id: 'javascript_dependency',
  category: 'seo',
  importance: 'medium',
  title: 'The page does not depend on JavaScript for its content',
  failureTitle: 'JavaScript changes the page\'s key tags or adds much of its content',
  description:
    'Search engines read the HTML first and run JavaScript later, if at all, and other crawlers (social previews, AI assistants) never do: a title, canonical, robots rule, heading, links or text that only JavaScript provides may be missed or seen late.',
  howToFix:
    'Render the title, meta description, canonical, robots meta, h1, main text and navigation links on the server (server-side rendering or pre-rendering), and let JavaScript enhance the page rather than build it.',
  labels: {
    changed: 'Changed by JavaScript', internal_links_in_raw_percent: 'Internal links already in the raw HTML (%)',
    words_in_raw_percent: 'Words already in the raw HTML (%)', links_only_after_javascript: 'Links only after JavaScript',
    words_only_after_javascript: 'Words only after JavaScript', field: 'Element', raw: 'In the raw HTML', rendered: 'After JavaScript',
  },
  value: JavascriptDependencyValue,
  run({ rendered }) {
    if (rendered === undefined) return notApplicable(NOT_RENDERED_REASON);
    if (renderFailed(rendered)) return notApplicable(`The page could not be rendered: ${rendered.error}`);
    const changes = FIELDS.filter((field) => changed(rendered, field));
    const linksShare = internalLinksInRaw(rendered);
    const wordsShare = rendered.words.rendered === 0 ? 1 : Math.min(1, rendered.words.raw / rendered.words.rendered);
    const errors: CheckErrors = {};
    if (changes.length > 0) errors.changed = changes.map((field) => ({ field, raw: rendered[field].raw, rendered: rendered[field].rendered }));
    if (linksShare < MIN_SHARE_IN_RAW) errors.links_only_after_javascript = rendered.links.only_rendered;
    if (wordsShare < MIN_SHARE_IN_RAW) errors.words_only_after_javascript = [{ raw: rendered.words.raw, rendered: rendered.words.rendered }];
    const value = {
      changed: changes,
      internal_links_in_raw_percent: Math.floor(linksShare * 100),
      words_in_raw_percent: Math.floor(wordsShare * 100),
    };
    return outcomeFromErrors(value, errors);
  },
});

function changed(rendered: RenderedComparison, field: Field): boolean {
  const { raw, rendered: after } = rendered[field];
  return JSON.stringify(raw) !== JSON.stringify(after);
}

/** Of the rendered page's internal links, the share the raw HTML already has (all of none). */
function internalLinksInRaw({ links }: RenderedComparison): number {
  const { rendered, only_rendered: onlyRendered } = links.internal;
  return rendered === 0 ? 1 : (rendered - onlyRendered) / rendered;
}
