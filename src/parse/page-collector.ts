// The htmlparser2 handler behind parsePage: it follows the start tags, end tags and text of one
// streaming pass and fills a PageSnapshot as they go by, with no DOM. This class tracks where in the
// document we are (head or body, hidden, svg, inert) and the document-wide counts; ElementCollector
// keeps the lists of elements, TextStatistics the visible text and StructuredCollector the structured
// data.
//
// Regions are tracked with counters and with the depth of the element that opened them
// (`hiddenAt`, `svgAt`). That works because htmlparser2 closes elements strictly in reverse order of
// opening (it emits implied end tags), so every end tag belongs to the most recently opened element
// that is still open.
import { documentMode } from './doctype.ts';
import { ElementCollector } from './element-collector.ts';
import type { PageText } from '../fetch/page-text.ts';
import type { PageSnapshot } from './page-snapshot.ts';
import type { PageParserHandler } from './page-parser.ts';
import { MAX_OPEN_ELEMENTS } from './page-parser.ts';
import { StartTagAttributes } from './start-tag-attributes.ts';
import { StructuredCollector } from './structured-collector.ts';
import {
  BREAKS_TEXT,
  DEPRECATED,
  HEAD_CONTENT,
  HIDES_TEXT,
  INERT,
  Kind,
  KIND_SHIFT,
  TAG_RULES,
} from './tag-rules.ts';
import { TextStatistics } from './text-statistics.ts';
import { resolveUrl } from './url.ts';
import { hidesElement } from './inline-style.ts';

/** Duplicate ids listed for diagnostics. */
const MAX_DUPLICATE_IDS = 50;

/** True when `source.slice(start, end)` is only whitespace (a stray BOM counts as whitespace). */
function isBlank(source: string, start: number, end: number): boolean {
  for (let i = start; i < end; i++) {
    const c = source.charCodeAt(i);
    if (c !== 0x20 && c !== 0x0a && c !== 0x09 && c !== 0x0d && c !== 0x0c && c !== 0xfeff) return false;
  }
  return true;
}

export class PageCollector implements PageParserHandler {
  /** `htmlLength`: the document's length in characters. */
  constructor(private readonly htmlLength: number) {}

  /** Elements open right now. */
  depth = 0;
  private maxDepth = 0;
  private elementCount = 0;
  /** The start tag being read: its name, its TAG_RULES entry and its attributes so far. */
  private startTagPending = false;
  private tagName = '';
  private tagRule = 0;
  /** Where the start tag being read begins and ends in the document (html.slice(tagStart, tagEnd)). */
  private tagStart = 0;
  private tagEnd = 0;
  private readonly attrs = new StartTagAttributes();
  /** TAG_RULES entry of each open element by depth, so an end tag needs no lookup. */
  private readonly openRules = new Int32Array(MAX_OPEN_ELEMENTS + 2);

  private doctypeRaw: string | null = null;
  private standardsMode = false;
  /** A start tag or text came before any doctype, so a later doctype cannot set the mode. */
  private contentSeen = false;

  private bodyStarted = false;
  private textHiddenDepth = 0;
  private inertDepth = 0;
  /** Depth of the outermost open element with a `hidden` attribute (0: none). */
  private hiddenAt = 0;
  /** Depth of the outermost open <svg> (0: none). */
  private svgAt = 0;
  /** Depth of the outermost open element with an inline `display:none` (0: none); hides images only. */
  private displayNoneAt = 0;

  private readonly elements = new ElementCollector();
  private readonly text = new TextStatistics();
  private readonly structured = new StructuredCollector();
  private readonly microdataTypes: string[] = [];
  private readonly rdfaTypes: string[] = [];
  private inlineStyleCount = 0;
  private readonly deprecatedTags: Record<string, number> = {};
  private readonly seenIds = new Set<string>();
  private readonly duplicateIds = new Set<string>();

  ondeclaration(name: string, data: string): void {
    if (this.doctypeRaw !== null || !name.startsWith('!doctype')) return;
    this.doctypeRaw = data;
    this.standardsMode = !this.contentSeen && documentMode(data) === 'no-quirks';
  }

  onopentagname(name: string, rule: number, start: number): void {
    this.startTagPending = true;
    this.tagName = name;
    this.tagRule = rule;
    this.tagStart = this.tagEnd = start;
    this.attrs.clear();
  }

  onattribute(id: number, value: string): void {
    this.attrs.set(id, value);
  }

  onstarttagend(end: number): void {
    if (!this.startTagPending) return;
    this.startTagPending = false;
    this.tagEnd = end;
    this.openElement(false);
  }

  onclosetag(name: string, isImplied: boolean): void {
    if (this.startTagPending) {
      this.startTagPending = false;
      // The start tag never ended: either the input stopped inside it (htmlparser2 then "closes" it,
      // implied) or htmlparser2 made it up for a stray </p> or </br> and closes it at once.
      if (isImplied) return;
      this.openElement(true);
    }
    const depth = this.depth;
    if (depth === 0) return;
    this.depth = depth - 1;
    if (depth === this.structured.openDepth) this.structured.close();

    const rule = depth < this.openRules.length ? this.openRules[depth] : (TAG_RULES.get(name) ?? 0);
    if (rule & BREAKS_TEXT) this.breakText();
    if (rule & HIDES_TEXT) this.textHiddenDepth--;
    if (rule & INERT) this.inertDepth--;
    if (this.hiddenAt === depth) this.hiddenAt = 0;
    if (this.svgAt === depth) this.svgAt = 0;
    if (this.displayNoneAt === depth) this.displayNoneAt = 0;
    const kind = rule >>> KIND_SHIFT;
    if (kind !== 0) this.elements.close(kind, depth);
  }

  ontextrange(source: string, start: number, end: number): void {
    this.addText(source, start, end);
  }

  /** Text decoded from a character reference. */
  ontext(data: string): void {
    this.addText(data, 0, data.length);
  }

  /** Builds the snapshot once the parser has ended; `html` is the document parsed. */
  snapshot(finalUrl: string, html: PageText): PageSnapshot {
    this.text.finish();
    const elements = this.elements.finish();
    // every field written out (no spread), so all snapshots share one object shape
    return {
      htmlLang: elements.htmlLang,
      baseHref: elements.baseHref,
      titles: elements.titles,
      titlesOutsideHead: elements.titlesOutsideHead,
      metas: elements.metas,
      linkTags: elements.linkTags,
      headings: elements.headings,
      anchors: elements.anchors,
      images: elements.images,
      scripts: elements.scripts,
      resources: elements.resources,
      forms: elements.forms,
      jsonLd: elements.jsonLd,
      mailtoEmails: elements.mailtoEmails,
      htmlLength: this.htmlLength,
      doctype: { raw: this.doctypeRaw, standardsMode: this.standardsMode },
      baseUrl: baseUrl(elements.baseHref, finalUrl),
      microdataTypes: this.microdataTypes,
      rdfaTypes: this.rdfaTypes,
      structured: this.structured.finish(elements.jsonLd, elements.jsonLdPlaces, finalUrl, html),
      inlineStyleCount: this.inlineStyleCount,
      deprecatedTags: this.deprecatedTags,
      elementCount: this.elementCount,
      maxDepth: this.maxDepth,
      duplicateIds: [...this.duplicateIds],
      text: {
        wordCount: this.text.wordCount,
        charCount: this.text.charCount,
        words: this.text.words,
        emails: [...this.text.emails.values()],
      },
    };
  }

  private openElement(implied: boolean): void {
    const rule = this.tagRule;
    const attrs = this.attrs;
    const depth = ++this.depth;
    if (depth < this.openRules.length) this.openRules[depth] = rule;
    if (depth > this.maxDepth) this.maxDepth = depth;
    if (!implied) this.elementCount++;
    this.contentSeen = true;

    if (rule & BREAKS_TEXT) this.breakText();
    if (!this.bodyStarted && (rule & HEAD_CONTENT) === 0 && this.inertDepth === 0) this.bodyStarted = true;
    if (rule & HIDES_TEXT) this.textHiddenDepth++;
    if (rule & DEPRECATED) this.deprecatedTags[this.tagName] = (this.deprecatedTags[this.tagName] ?? 0) + 1;
    const kind = rule >>> KIND_SHIFT;
    if (kind === Kind.Svg && this.svgAt === 0) this.svgAt = depth;

    const id = attrs.id;
    const firstId = id !== undefined && id !== '' && this.noteId(id) ? id : undefined;
    if (attrs.style !== undefined) {
      if (this.svgAt === 0) this.inlineStyleCount++;
      if (this.displayNoneAt === 0 && hidesElement(attrs.style)) this.displayNoneAt = depth;
    }
    if (attrs.hidden !== undefined && this.hiddenAt === 0) this.hiddenAt = depth;

    if (this.inertDepth === 0) {
      // written at every depth as it is reached, so the table stays a plain array
      const ids = this.structured.ids;
      if (depth <= ids.length) ids[depth] = firstId;
      if (attrs.structuredData) this.structured.open(this.tagName, attrs, depth, this.tagStart);
      if (attrs.itemscope !== undefined && attrs.itemtype !== undefined) this.microdataTypes.push(attrs.itemtype);
      if (attrs.typeof !== undefined) this.rdfaTypes.push(attrs.typeof);
      if (kind !== 0 && this.svgAt === 0) {
        const at = { start: this.tagStart, end: this.tagEnd, hidden: this.hiddenAt !== 0 || this.displayNoneAt !== 0 };
        this.elements.open(kind, this.tagName, attrs, depth, !this.bodyStarted, this.isTextVisible(), at);
      }
    }
    if (rule & INERT) this.inertDepth++;
  }

  private isTextVisible(): boolean {
    return this.textHiddenDepth === 0 && this.hiddenAt === 0 && this.svgAt === 0;
  }

  /** Text `source.slice(start, end)`: kept for a title or JSON-LD, or counted when visible. */
  private addText(source: string, start: number, end: number): void {
    if (this.structured.collectsText && this.inertDepth === 0) this.structured.addText(source, start, end);
    if (this.elements.keepsRawText) {
      this.elements.addRawText(source.slice(start, end));
      return;
    }
    if (!this.contentSeen && !isBlank(source, start, end)) this.contentSeen = true;
    if (!this.isTextVisible()) return;
    if (!this.bodyStarted) {
      if (isBlank(source, start, end)) return;
      this.bodyStarted = true; // text cannot be in the head: it starts the body
    }
    this.text.add(source, start, end);
    if (this.elements.collectsText) this.elements.addVisibleText(source, start, end);
  }

  /** A block boundary: ends the current word and separates link and heading text. */
  private breakText(): void {
    this.text.addBreak();
    this.elements.addBreak();
  }

  /** Whether `id` is the page's first element with that id. */
  private noteId(id: string): boolean {
    const seen = this.seenIds.size;
    if (this.seenIds.add(id).size !== seen) return true;
    if (this.duplicateIds.size < MAX_DUPLICATE_IDS) this.duplicateIds.add(id);
    return false;
  }
}

function baseUrl(baseHref: string | null, finalUrl: string): string {
  if (baseHref === null) return finalUrl;
  const resolved = resolveUrl(baseHref, finalUrl);
  // the HTML standard falls back to the document URL for data: and javascript: bases
  if (resolved === null || resolved.protocol === 'data:' || resolved.protocol === 'javascript:') return finalUrl;
  return resolved.href;
}
