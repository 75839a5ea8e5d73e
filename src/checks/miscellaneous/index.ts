// The miscellaneous checks, in the order docs/checks.md lists them (phpRank's first, then the ones added since).
import type { CheckDefinition } from '../check.ts';
import { structuredDataCheck } from './structured-data.ts';
import { structuredDataValidCheck } from './structured-data-valid.ts';
import { richResultsCheck } from './rich-results.ts';
import { metaViewportCheck } from './meta-viewport.ts';
import { charsetCheck } from './charset.ts';
import { sitemapCheck } from './sitemap.ts';
import { socialCheck } from './social.ts';
import { inlineCssCheck } from './inline-css.ts';
import { deprecatedHtmlTagsCheck } from './deprecated-html-tags.ts';
import { aiCrawlersCheck } from './ai-crawlers.ts';
import { llmsTxtCheck } from './llms-txt.ts';

export const miscellaneousChecks: readonly CheckDefinition[] = [
  structuredDataCheck,
  metaViewportCheck,
  charsetCheck,
  sitemapCheck,
  socialCheck,
  inlineCssCheck,
  deprecatedHtmlTagsCheck,
  aiCrawlersCheck,
  llmsTxtCheck,
  structuredDataValidCheck,
  richResultsCheck,
];
