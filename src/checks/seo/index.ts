// The SEO checks, in the order docs/checks.md lists them: phpRank's first, then the ones added since.
import type { CheckDefinition } from '../check.ts';
import { titleCheck } from './title.ts';
import { metaDescriptionCheck } from './meta-description.ts';
import { headingsCheck } from './headings.ts';
import { headingOrderCheck } from './heading-order.ts';
import { contentKeywordsCheck } from './content-keywords.ts';
import { imageKeywordsCheck } from './image-keywords.ts';
import { seoFriendlyUrlCheck } from './seo-friendly-url.ts';
import { notFoundPageCheck } from './404-page.ts';
import { robotsCheck } from './robots.ts';
import { robotsTxtValidCheck } from './robots-txt-valid.ts';
import { noindexCheck } from './noindex.ts';
import { httpStatusCheck } from './http-status.ts';
import { redirectsCheck } from './redirects.ts';
import { canonicalCheck } from './canonical.ts';
import { hreflangCheck } from './hreflang.ts';
import { inPageLinksCheck } from './in-page-links.ts';
import { linkTextCheck } from './link-text.ts';
import { crawlableAnchorsCheck } from './crawlable-anchors.ts';
import { languageCheck } from './language.ts';
import { faviconCheck } from './favicon.ts';
import { openGraphCheck } from './open-graph.ts';
import { contentLengthCheck } from './content-length.ts';
import { textHtmlRatioCheck } from './text-html-ratio.ts';
import { javascriptDependencyCheck } from './javascript-dependency.ts';

export const seoChecks: readonly CheckDefinition[] = [
  titleCheck,
  metaDescriptionCheck,
  headingsCheck,
  headingOrderCheck,
  contentKeywordsCheck,
  imageKeywordsCheck,
  seoFriendlyUrlCheck,
  notFoundPageCheck,
  robotsCheck,
  robotsTxtValidCheck,
  noindexCheck,
  httpStatusCheck,
  redirectsCheck,
  canonicalCheck,
  hreflangCheck,
  inPageLinksCheck,
  linkTextCheck,
  crawlableAnchorsCheck,
  languageCheck,
  faviconCheck,
  openGraphCheck,
  contentLengthCheck,
  textHtmlRatioCheck,
  // Checks phpRank does not have follow its own.
  javascriptDependencyCheck,
];
