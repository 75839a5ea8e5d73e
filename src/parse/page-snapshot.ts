// The typed result of parsing a page once. Every check reads this (plus the fetch facts); no check
// parses HTML again. Attribute values are as written in the page, entity-decoded, not trimmed unless
// a field says so. URLs are raw attribute values; `resolveUrl` in url.ts resolves them against
// `baseUrl`.
import type { StructuredExtraction } from '../structured/structured-types.ts';

export interface MetaTag {
  /** lower-cased `name` attribute, or null */
  name: string | null;
  /** lower-cased `property` attribute, or null */
  property: string | null;
  /** lower-cased `http-equiv` attribute, or null */
  httpEquiv: string | null;
  /** `charset` attribute, or null */
  charset: string | null;
  /** `content` attribute, or null when absent */
  content: string | null;
  inHead: boolean;
}

export interface LinkTag {
  /** rel tokens, lower-case */
  rel: string[];
  href: string | null;
  hreflang: string | null;
  type: string | null;
  media: string | null;
  /** `as` attribute (preload), lower-case or null */
  as: string | null;
  inHead: boolean;
}

/**
 * Where an element's start tag is in the decoded HTML (`html.slice(tagStart, tagEnd)`), so a check can
 * show an offending element with its line (checks/locate.ts).
 */
export interface SourceSpan {
  tagStart: number;
  tagEnd: number;
}

export interface Heading extends SourceSpan {
  level: 1 | 2 | 3 | 4 | 5 | 6;
  /** Text content, whitespace collapsed and trimmed (img alt text counts as text). */
  text: string;
}

/** Attributes only a link may have: on an `<a>` without href they show it is meant as a link. */
export const LINK_ONLY_ATTRIBUTES = ['target', 'rel', 'download', 'ping', 'hreflang', 'type', 'referrerpolicy'] as const;
export type LinkOnlyAttribute = (typeof LINK_ONLY_ATTRIBUTES)[number];

export interface Anchor extends SourceSpan {
  /** Raw href attribute; null when the attribute is absent. */
  href: string | null;
  /** Visible text, whitespace collapsed and trimmed; img alt inside counts. */
  text: string;
  /** rel tokens, lower-case */
  rel: string[];
  /** target attribute, or null */
  target: string | null;
  /** role attribute, or null */
  role: string | null;
  /** has an `id` or `name` attribute (a fragment target) */
  isNamedAnchor: boolean;
  /** has an inline onclick attribute */
  hasOnclick: boolean;
  /** aria-label or title, when present (an accessible name not in the text) */
  label: string | null;
  /** The LINK_ONLY_ATTRIBUTES it carries, in that order ([] for most links). */
  linkOnlyAttributes: LinkOnlyAttribute[];
}

export interface PictureSource {
  type: string | null;
  srcset: string | null;
}

export interface Image extends SourceSpan {
  src: string | null;
  srcset: string | null;
  /** null when the attribute is absent; "" when present and empty */
  alt: string | null;
  width: string | null;
  height: string | null;
  loading: string | null;
  /** role attribute (role=presentation/none marks decoration) */
  role: string | null;
  /** the `<source>` siblings when the img is inside a `<picture>`; [] otherwise */
  pictureSources: PictureSource[];
  /** A `hidden` attribute or an inline `display:none` on the img or an ancestor keeps it from showing. */
  hidden: boolean;
}

export interface Script extends SourceSpan {
  src: string | null;
  /** type attribute lower-case, or null */
  type: string | null;
  async: boolean;
  defer: boolean;
  /** in <head> (render-blocking when external and neither async nor defer) */
  inHead: boolean;
}

/** A sub-resource the page references: used by http_requests and mixed_content. */
export interface ResourceRef {
  /** tag name: script, link, img, iframe, video, audio, source, track, embed, object, input */
  tag: string;
  /** attribute the URL came from: src, href, srcset, poster, data */
  attr: string;
  /** the raw URL (for srcset, one candidate URL per entry) */
  url: string;
  /** loading=lazy on img/iframe, preload=none on media: not loaded up front */
  deferred: boolean;
}

export interface Form extends SourceSpan {
  /** raw action attribute, or null when absent */
  action: string | null;
  /** lower-case method, "get" when absent */
  method: string;
  hasPasswordField: boolean;
}

export interface JsonLdBlock {
  /** The script's text, trimmed. */
  raw: string;
}

export interface PageSnapshot {
  /** Characters of the decoded HTML. */
  htmlLength: number;
  doctype: {
    /** the raw declaration text as written, e.g. `!DOCTYPE html`, or null when absent */
    raw: string | null;
    /** true when the doctype gives standards (no-quirks) mode per the HTML spec */
    standardsMode: boolean;
  };
  /** `<html lang>` as written, or null when absent. */
  htmlLang: string | null;
  /** `<base href>` in the head, or null. */
  baseHref: string | null;
  /** Absolute URL to resolve relative references against (final URL, adjusted by <base>). */
  baseUrl: string;
  /** Text of every <title> element in the head, in order (not trimmed). */
  titles: string[];
  /** Number of <title> elements outside the head (svg titles excluded). */
  titlesOutsideHead: number;
  metas: MetaTag[];
  linkTags: LinkTag[];
  headings: Heading[];
  anchors: Anchor[];
  images: Image[];
  scripts: Script[];
  resources: ResourceRef[];
  forms: Form[];
  jsonLd: JsonLdBlock[];
  /** itemtype values of microdata items (itemscope elements), as written */
  microdataTypes: string[];
  /** RDFa `typeof` values, as written */
  rdfaTypes: string[];
  /** The items of every structured-data format with their lines, and the JSON-LD problems (docs/structured-data.md). */
  structured: StructuredExtraction;
  /** Elements with a `style` attribute, outside <svg>. */
  inlineStyleCount: number;
  /** Count per deprecated tag name found (acronym, applet, ..., tt); only tags seen appear. */
  deprecatedTags: Record<string, number>;
  /** Elements in the document (every start tag, implied ones excluded). */
  elementCount: number;
  /** Maximum nesting depth seen. */
  maxDepth: number;
  /** Element ids used more than once (up to 50), for diagnostics. */
  duplicateIds: string[];
  text: {
    /** Words of visible body text (script, style, noscript, template, head and hidden inputs excluded). */
    wordCount: number;
    /** Characters of visible body text, whitespace runs counted as one. */
    charCount: number;
    /** Lower-cased distinct words of visible text, for keyword checks (capped at 20,000 words). */
    words: ReadonlySet<string>;
    /** e-mail addresses found in visible text (deduplicated, up to 50). */
    emails: string[];
  };
  /** e-mail addresses in mailto: links (deduplicated, up to 50). */
  mailtoEmails: string[];
}
