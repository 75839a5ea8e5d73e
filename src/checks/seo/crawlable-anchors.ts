import { capItems, defineCheck, notApplicable, type CheckErrors } from '../check.ts';
import type { Anchor } from '../../parse/page-snapshot.ts';
import { anchorTargets } from '../../parse/link-urls.ts';
import { outcomeFromErrors } from './outcome.ts';
import { locate, type PageSource } from '../locate.ts';
import { Int, Obj, Opt } from '../value-schema.ts';

type Problem = 'empty_href' | 'javascript_href' | 'file_href' | 'unparsable_href' | 'onclick_without_href' | 'missing_href';

const CrawlableAnchorsValue = Obj({
  anchors_checked: Int(),
  uncrawlable: Int(),
  empty_href: Opt(Int()),
  javascript_href: Opt(Int()),
  file_href: Opt(Int()),
  unparsable_href: Opt(Int()),
  onclick_without_href: Opt(Int()),
  missing_href: Opt(Int()),
});

export const crawlableAnchorsCheck = defineCheck<typeof CrawlableAnchorsValue>({
  id: 'crawlable_anchors',
  category: 'seo',
  importance: 'medium',
  title: 'Links are crawlable',
  failureTitle: 'Some links cannot be crawled',
  description:
    'Search engines follow only the URL in a link’s `href`. Links that work through JavaScript (`javascript:`, onclick, or link attributes such as `target` on an `<a>` without href), point to local files or hold a malformed URL lead crawlers nowhere, so the pages behind them may never be found.',
  howToFix:
    'Give each listed link a real URL in `href` (`<a href="/products">`); keep JavaScript behaviour in an event listener on top of it, and use `<button>` for actions that are not navigation. An `<a>` that is only a placeholder should carry no link attributes (`target`, `rel`, ...).',
  differsFromLighthouse:
    'An empty `href=""` fails (it leads nowhere new; Lighthouse resolves it to the page and passes it), and so does every `javascript:` href, not only `javascript:void(0)`. An `<a>` without href and without link-only attributes is a placeholder the HTML standard allows and passes; Lighthouse fails it unless it has `aria-current`.',
  labels: {
    anchors_checked: 'Links checked', uncrawlable: 'Links search engines cannot follow', empty_href: 'Links with an empty href',
    javascript_href: 'Links to javascript:', file_href: 'Links to file:', unparsable_href: 'Links whose href does not parse',
    onclick_without_href: 'Click handlers without href', missing_href: 'Link attributes without href', href: 'href', text: 'Link text',
    attributes: 'Link attributes',
  },
  value: CrawlableAnchorsValue,
  run({ page, snapshot }) {
    const problems = new Map<Problem, Anchor[]>();
    let checked = 0;
    const { anchors } = snapshot;
    const { protocols } = anchorTargets(snapshot);
    for (let i = 0; i < anchors.length; i++) {
      const anchor = anchors[i];
      // An explicit role makes the element something other than a link (a button, a tab...).
      if (anchor.role !== null && anchor.role.trim() !== '') continue;
      checked++;
      const problem = crawlProblem(anchor, protocols[i]);
      if (problem === null) continue;
      const list = problems.get(problem) ?? [];
      list.push(anchor);
      problems.set(problem, list);
    }
    if (checked === 0) return notApplicable('the page has no links');

    const errors: CheckErrors = {};
    const counts: Partial<Record<Problem, number>> = {};
    for (const [problem, anchors] of problems) {
      errors[problem] = capItems(anchors).map((anchor) => describeAnchor(problem, anchor, page));
      counts[problem] = anchors.length;
    }
    const uncrawlable = Object.values(counts).reduce((sum, count) => sum + count, 0);
    const value = { anchors_checked: checked, uncrawlable, ...counts };
    return outcomeFromErrors(value, errors);
  },
});

/** What a listed link shows: its href and text, the link attributes when it has no href, and where it is. */
function describeAnchor(problem: Problem, anchor: Anchor, page: PageSource): Record<string, unknown> {
  const found =
    problem === 'missing_href'
      ? { href: null, text: anchor.text, attributes: anchor.linkOnlyAttributes }
      : { href: anchor.href, text: anchor.text };
  return { ...found, ...locate(page, anchor) };
}

/** `protocol`: of the anchor's href resolved, '' when it has none or it does not parse. */
function crawlProblem(anchor: Anchor, protocol: string): Problem | null {
  // Without href an <a> is a placeholder, fine unless script makes it act as a link: an onclick, or an
  // attribute only a link may have (target, rel, download...), which no one writes on a mere
  // placeholder. An id/name without href is a jump target.
  if (anchor.href === null) {
    if (anchor.isNamedAnchor) return null;
    if (anchor.hasOnclick) return 'onclick_without_href';
    return anchor.linkOnlyAttributes.length > 0 ? 'missing_href' : null;
  }
  if (anchor.href.trim() === '') return 'empty_href';
  if (protocol === '') return 'unparsable_href';
  if (protocol === 'javascript:') return 'javascript_href';
  if (protocol === 'file:') return 'file_href';
  return null;
}
