import { defineSiteCheck } from './site-check.ts';
import { duplicateGroups } from './site-pages.ts';

export const duplicateDescriptions = defineSiteCheck({
  id: 'duplicate_descriptions',
  importance: 'low',
  title: 'Every indexable page has its own meta description',
  failureTitle: 'Several indexable pages share a meta description',
  description:
    'A meta description shared by many pages says nothing about any one of them, so search engines tend to ignore it and make their own snippet from the page.',
  howToFix: 'Write a description for each page that summarises that page, or leave it out rather than repeat one.',
  run: (site) => duplicateGroups(site, 'description', 'description'),
});
