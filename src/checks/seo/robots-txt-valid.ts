import { capItems, defineCheck, notApplicable } from '../check.ts';
import { robotsTxtState } from './robots-access.ts';
import { outcomeFromErrors } from './outcome.ts';
import { Int, Obj, Str } from '../value-schema.ts';

const RobotsTxtValidValue = Obj({ url: Str(), groups: Int(), rules: Int(), sitemaps: Int(), problems: Int() });

export const robotsTxtValidCheck = defineCheck<typeof RobotsTxtValidValue>({
  id: 'robots_txt_valid',
  category: 'seo',
  importance: 'low',
  title: 'robots.txt is valid',
  failureTitle: 'robots.txt has invalid lines',
  description:
    'Crawlers skip lines they do not understand, so a misspelled directive or a malformed path silently stops a rule from working, or works for one crawler and not another.',
  howToFix:
    'Fix each listed line: `Name: value` with a known directive, paths starting with `/` or `*`, `$` only at the end, rules after a `User-agent` line, and absolute sitemap URLs.',
  labels: {
    url: 'robots.txt', groups: 'User-agent groups', rules: 'Rules', sitemaps: 'Sitemap lines', problems: 'Invalid lines',
    invalid_lines: 'Invalid lines', text: 'Line as written', message: 'Problem',
  },
  value: RobotsTxtValidValue,
  run(ctx) {
    const state = robotsTxtState(ctx);
    if (state.kind === 'unknown') return notApplicable(state.reason);
    if (state.kind === 'absent') return notApplicable(`the site has no robots.txt (it answered ${state.statusCode})`);
    const { robots } = state;
    const value = {
      url: ctx.origin.robotsTxt.url,
      groups: robots.groups.length,
      rules: robots.groups.reduce((sum, group) => sum + group.rules.length, 0),
      sitemaps: robots.sitemaps.length,
      problems: robots.problems.length,
    };
    return outcomeFromErrors(value, robots.problems.length === 0 ? {} : { invalid_lines: capItems(robots.problems) });
  },
});
