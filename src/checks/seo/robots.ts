import { defineCheck, notApplicable } from '../check.ts';
import { evaluateRobots, MAX_ROBOTS_BYTES, MAX_ROBOTS_GROUPS, MAX_ROBOTS_RULES } from '../../robots/robots-txt.ts';
import { robotsTxtState } from './robots-access.ts';
import { outcomeFromErrors } from './outcome.ts';
import { Int, Nullable, Obj, OneOf, Opt, Str } from '../value-schema.ts';

/** Googlebot obeys its own group, else `*`. */
const CRAWLER = 'googlebot';

const RobotsValue = Obj({
  robots_txt: Str(),
  url: Opt(Str()),
  status_code: Opt(Int()),
  user_agent: Opt(Str()),
  group: Opt(Nullable(Str({ description: 'the user-agent group that decided' }))),
  rule: Opt(Nullable(Obj({ type: OneOf(['allow', 'disallow']), pattern: Str(), line: Int() }))),
});

export const robotsCheck = defineCheck<typeof RobotsValue>({
  id: 'robots',
  category: 'seo',
  importance: 'high',
  title: 'robots.txt lets search engines crawl the page',
  failureTitle: 'robots.txt blocks search engines from the page',
  description:
    'A page that robots.txt disallows is not crawled, so search engines cannot read its content; at best its bare URL shows up in results.',
  howToFix:
    'Remove or narrow the Disallow rule shown (or add a longer Allow rule for this path) in the group for Googlebot or `*`. Use a noindex directive, not robots.txt, to keep a page out of results.',
  docsNote:
    `**robots.txt limits.** pagegrade reads the first ${MAX_ROBOTS_BYTES / 1024} KiB of robots.txt, as Google does, and ignores the rest. ` +
    `Of that it obeys at most ${MAX_ROBOTS_RULES.toLocaleString('en-US')} Allow and Disallow rules in at most ` +
    `${MAX_ROBOTS_GROUPS.toLocaleString('en-US')} user-agent groups; the line where a limit was reached counts as invalid for ` +
    '`robots_txt_valid`, and the rules and groups after it are ignored. Matching a rule against a URL takes time linear in the ' +
    "rule's length plus the URL's, whatever the rule holds: `*` never backtracks, because the literal runs between `*`s are " +
    'found left to right, each at its left-most place. The file is parsed and its rules compiled once per analysis, shared by ' +
    '`robots`, `robots_txt_valid` and `ai_crawlers` (and by every URL of a crawl), so 500 KiB of rules with a hundred `*`s each ' +
    'costs these checks milliseconds.',
  labels: {
    url: 'Page', robots_txt: 'robots.txt', status_code: 'robots.txt status code', user_agent: 'Crawler',
    group: 'User-agent group that decided', rule: 'Rule that decided', disallowed: 'Disallowed by', type: 'Rule', pattern: 'Path pattern',
    line: 'Line',
  },
  value: RobotsValue,
  run(ctx) {
    const state = robotsTxtState(ctx);
    const url = ctx.page.finalUrl;
    const robotsTxtUrl = ctx.origin.robotsTxt.url;
    if (state.kind === 'unknown') return notApplicable(state.reason, { robots_txt: robotsTxtUrl });
    if (state.kind === 'absent') {
      const value = { url, robots_txt: robotsTxtUrl, status_code: state.statusCode, user_agent: CRAWLER, group: null, rule: null };
      return { passed: true, value, errors: null };
    }

    const verdict = evaluateRobots(state.robots, url, [CRAWLER]);
    const decidingRule = verdict.rule;
    const rule = decidingRule && { type: decidingRule.allow ? 'allow' : 'disallow', pattern: decidingRule.pattern, line: decidingRule.line };
    const value = { url, robots_txt: robotsTxtUrl, status_code: state.statusCode, user_agent: CRAWLER, group: verdict.group, rule };
    return outcomeFromErrors(value, verdict.allowed ? {} : { disallowed: [{ group: verdict.group, ...rule }] });
  },
});
