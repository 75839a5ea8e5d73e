import { defineSiteCheck } from './site-check.ts';
import { duplicateGroups } from './site-pages.ts';

export const duplicateTitles = defineSiteCheck({
  id: 'duplicate_titles',
  importance: 'medium',
  title: 'Every indexable page has its own title',
  failureTitle: 'Several indexable pages share a title',
  description:
    'When pages share a title, search results cannot tell them apart and search engines may pick the wrong one for a query, or rewrite the titles themselves.',
  howToFix:
    'Give each page a title that says what is on that page and nowhere else; if two pages really are the same, keep one and point the other at it with rel=canonical.',
  run: (site) => duplicateGroups(site, 'title', 'title'),
});
