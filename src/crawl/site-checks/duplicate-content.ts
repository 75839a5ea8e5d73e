import { defineSiteCheck } from './site-check.ts';
import { duplicateGroups } from './site-pages.ts';

export const duplicateContent = defineSiteCheck({
  id: 'duplicate_content',
  importance: 'medium',
  title: 'No two indexable pages have the same text',
  failureTitle: 'Several indexable pages have the same text',
  description:
    'Pages with the same visible text compete with each other in search: search engines index one of them, not necessarily the one you want, and split the links between them.',
  howToFix:
    'Keep one URL for each piece of content: redirect the copies to it, or mark them with rel=canonical pointing at it; otherwise make each page\'s text its own.',
  run: (site) => duplicateGroups(site, 'text_hash', 'text_hash'),
});
